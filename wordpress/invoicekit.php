<?php
/**
 * Plugin Name:       invoicekit
 * Plugin URI:        https://github.com/invoicekit/invoicekit
 * Description:       The customer's invoices, billing details and a buy button on your pages, through the invoicekit BFF.
 * Version:           0.1.0
 * Requires at least: 6.1
 * Requires PHP:      8.1
 * Author:            invoicekit
 * License:           MIT
 * License URI:       https://opensource.org/licenses/MIT
 * Text Domain:       invoicekit
 * Domain Path:       /languages
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

define( 'INVOICEKIT_VERSION', '0.1.0' );
define( 'INVOICEKIT_FILE', __FILE__ );
define( 'INVOICEKIT_DIR', plugin_dir_path( __FILE__ ) );

require_once INVOICEKIT_DIR . 'includes/class-invoicekit-settings.php';
require_once INVOICEKIT_DIR . 'includes/class-invoicekit-portal-token.php';
require_once INVOICEKIT_DIR . 'includes/class-invoicekit-bff.php';
require_once INVOICEKIT_DIR . 'includes/class-invoicekit-elements.php';
require_once INVOICEKIT_DIR . 'includes/class-invoicekit-users.php';

add_action(
	'plugins_loaded',
	static function () {
		load_plugin_textdomain( 'invoicekit', false, dirname( plugin_basename( INVOICEKIT_FILE ) ) . '/languages' );
	}
);

Invoicekit_Settings::register();
Invoicekit_Elements::register();
Invoicekit_Users::register();
