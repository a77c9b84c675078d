<?php
/**
 * The invoices block on the front end.
 *
 * @package Invoicekit
 *
 * @var array $attributes The block's attributes.
 */

defined( 'ABSPATH' ) || exit;

?>
<div <?php echo get_block_wrapper_attributes(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- escaped by WordPress. ?>>
	<?php
	// phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- every attribute is escaped where the markup is built; a fragment is the BFF's own rendering.
	echo Invoicekit_Elements::invoices(
		array(
			'per_page' => $attributes['perPage'] ?? 25,
			'locale'   => $attributes['locale'] ?? '',
			'theme'    => $attributes['theme'] ?? 'light',
		)
	);
	?>
</div>
