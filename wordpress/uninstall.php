<?php
/**
 * Removes the plugin's options and user links when it is deleted.
 *
 * @package Invoicekit
 */

defined( 'WP_UNINSTALL_PLUGIN' ) || exit;

foreach ( array( 'invoicekit_bff_url', 'invoicekit_portal_secret', 'invoicekit_service_url', 'invoicekit_api_token', 'invoicekit_signup', 'invoicekit_secret_rejected' ) as $invoicekit_option ) {
	delete_option( $invoicekit_option );
}
delete_metadata( 'user', 0, 'invoicekit_client_id', '', true );
