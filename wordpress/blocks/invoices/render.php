<?php
/**
 * The invoices block on the front end.
 *
 * @package Invoicekit
 *
 * @var array $attributes The block's attributes.
 */

defined( 'ABSPATH' ) || exit;

// phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- every attribute is escaped where the markup is built; a list fragment is the BFF's own rendering.
echo Invoicekit_Elements::block( 'invoices', $attributes );
