<?php
/**
 * The billing details block on the front end.
 *
 * @package Invoicekit
 *
 * @var array $attributes The block's attributes.
 */

defined( 'ABSPATH' ) || exit;

?>
<div <?php echo get_block_wrapper_attributes(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by WordPress. ?>>
	<?php
	// phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- every attribute is escaped where the markup is built.
	echo Invoicekit_Elements::client_form(
		array(
			'locale' => $attributes['locale'] ?? '',
			'theme'  => $attributes['theme'] ?? 'light',
		)
	);
	?>
</div>
