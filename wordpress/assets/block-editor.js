/**
 * The invoicekit blocks in the editor: a preview of what the block shows and its settings in the
 * sidebar. Plain script on WordPress's own globals, so the plugin needs no build step. The editor
 * never gets a portal token: the preview describes the block instead of loading a customer's data.
 */
( function ( wp ) {
	'use strict';
	var el = wp.element.createElement;
	var __ = wp.i18n.__;
	var sprintf = wp.i18n.sprintf;
	var useBlockProps = wp.blockEditor.useBlockProps;
	var InspectorControls = wp.blockEditor.InspectorControls;
	var components = wp.components;

	function commonControls( attributes, setAttributes ) {
		return [
			el( components.TextControl, {
				key: 'locale',
				label: __( 'Language', 'invoicekit' ),
				help: __( 'A language tag such as pl or en-GB. Empty follows the site.', 'invoicekit' ),
				value: attributes.locale,
				onChange: function ( locale ) {
					setAttributes( { locale: locale } );
				},
			} ),
			el( components.SelectControl, {
				key: 'theme',
				label: __( 'Colours', 'invoicekit' ),
				value: attributes.theme,
				options: [
					{ label: __( 'Light', 'invoicekit' ), value: 'light' },
					{ label: __( 'Dark', 'invoicekit' ), value: 'dark' },
					{ label: __( 'Follow the visitor\'s system', 'invoicekit' ), value: 'auto' },
				],
				onChange: function ( theme ) {
					setAttributes( { theme: theme } );
				},
			} ),
		];
	}

	function preview( props, icon, label, text, controls ) {
		return el(
			'div',
			useBlockProps( { className: 'invoicekit-block-preview' } ),
			el(
				InspectorControls,
				null,
				el( components.PanelBody, { title: __( 'Settings', 'invoicekit' ) }, controls.concat( commonControls( props.attributes, props.setAttributes ) ) )
			),
			el( components.Placeholder, { icon: icon, label: label, instructions: text } )
		);
	}

	wp.blocks.registerBlockType( 'invoicekit/invoices', {
		edit: function ( props ) {
			return preview(
				props,
				'media-spreadsheet',
				__( 'Customer invoices', 'invoicekit' ),
				sprintf(
					/* translators: %d: how many invoices a page shows */
					__( 'The signed-in customer\'s invoices appear here, %d to a page. Visitors who are not signed in see a sign-in link.', 'invoicekit' ),
					props.attributes.perPage
				),
				[
					el( components.RangeControl, {
						key: 'perPage',
						label: __( 'Invoices per page', 'invoicekit' ),
						min: 5,
						max: 100,
						value: props.attributes.perPage,
						onChange: function ( perPage ) {
							props.setAttributes( { perPage: perPage } );
						},
					} ),
				]
			);
		},
		save: function () {
			return null;
		},
	} );

	wp.blocks.registerBlockType( 'invoicekit/client-form', {
		edit: function ( props ) {
			return preview(
				props,
				'id-alt',
				__( 'Billing details', 'invoicekit' ),
				__( 'The signed-in customer\'s billing details appear here, to check and change.', 'invoicekit' ),
				[]
			);
		},
		save: function () {
			return null;
		},
	} );

	wp.blocks.registerBlockType( 'invoicekit/pay-button', {
		edit: function ( props ) {
			var product = props.attributes.product;
			return preview(
				props,
				'cart',
				__( 'Pay button', 'invoicekit' ),
				product
					? sprintf(
						/* translators: %s: the product's token */
						__( 'A button that sells the product %s, to guests and signed-in customers.', 'invoicekit' ),
						product
					)
					: __( 'Enter the product\'s token in the block settings.', 'invoicekit' ),
				[
					el( components.TextControl, {
						key: 'product',
						label: __( 'Product token', 'invoicekit' ),
						value: product,
						onChange: function ( value ) {
							props.setAttributes( { product: value.trim() } );
						},
					} ),
					el( components.TextControl, {
						key: 'label',
						label: __( 'Button text', 'invoicekit' ),
						help: __( 'Empty shows the element\'s own text with the price.', 'invoicekit' ),
						value: props.attributes.label,
						onChange: function ( label ) {
							props.setAttributes( { label: label } );
						},
					} ),
				]
			);
		},
		save: function () {
			return null;
		},
	} );
} )( window.wp );
