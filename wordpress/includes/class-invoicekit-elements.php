<?php
/**
 * The three elements as shortcodes and dynamic blocks: `<invoice-list>`, `<client-form>` and
 * `<product-pay-button>`, each with a portal token carrying only the scopes it needs.
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

/**
 * Registers the scripts, shortcodes and blocks, and prints the elements.
 */
final class Invoicekit_Elements {

	/** The elements' bundle: a script module from WordPress 6.5, a module script tag before. */
	const SCRIPT = 'invoicekit-elements';

	const THEMES = array( 'light', 'dark', 'auto' );

	/**
	 * Hooks everything up.
	 */
	public static function register() {
		add_action( 'init', array( self::class, 'register_assets' ) );
		add_action( 'init', array( self::class, 'register_blocks' ) );
		add_action( 'init', array( self::class, 'register_shortcodes' ) );
		add_filter( 'script_loader_tag', array( self::class, 'module_tag' ), 10, 3 );
	}

	/**
	 * Registers the bundle, the sign-up helper and the block editor script.
	 */
	public static function register_assets() {
		$bundle = plugins_url( 'assets/invoicekit.js', INVOICEKIT_FILE );
		if ( function_exists( 'wp_register_script_module' ) ) {
			wp_register_script_module( self::SCRIPT, $bundle, array(), INVOICEKIT_VERSION );
		} else {
			wp_register_script( self::SCRIPT, $bundle, array(), INVOICEKIT_VERSION, true );
		}
		wp_register_script( 'invoicekit-signup', plugins_url( 'assets/signup.js', INVOICEKIT_FILE ), array(), INVOICEKIT_VERSION, true );
		wp_register_script(
			'invoicekit-block-editor',
			plugins_url( 'assets/block-editor.js', INVOICEKIT_FILE ),
			array( 'wp-blocks', 'wp-element', 'wp-block-editor', 'wp-components', 'wp-i18n' ),
			INVOICEKIT_VERSION,
			false
		);
		wp_set_script_translations( 'invoicekit-block-editor', 'invoicekit', INVOICEKIT_DIR . 'languages' );
	}

	/**
	 * Before WordPress 6.5 there are no script modules: the bundle's tag gets `type="module"`.
	 *
	 * @param string $tag    The script tag.
	 * @param string $handle The script's handle.
	 * @param string $src    The script's address.
	 * @return string
	 */
	public static function module_tag( $tag, $handle, $src ) {
		if ( self::SCRIPT !== $handle ) {
			return $tag;
		}
		// phpcs:ignore WordPress.WP.EnqueuedResources.NonEnqueuedScript -- this is the enqueued script's own tag.
		return sprintf( '<script type="module" src="%s" id="%s-js"></script>' . "\n", esc_url( $src ), esc_attr( $handle ) );
	}

	/**
	 * Loads the bundle on the page being printed.
	 */
	private static function enqueue_bundle() {
		if ( function_exists( 'wp_enqueue_script_module' ) ) {
			wp_enqueue_script_module( self::SCRIPT );
		} else {
			wp_enqueue_script( self::SCRIPT );
		}
	}

	/**
	 * The three dynamic blocks, each from its block.json.
	 */
	public static function register_blocks() {
		foreach ( array( 'invoices', 'client-form', 'pay-button' ) as $block ) {
			register_block_type( INVOICEKIT_DIR . 'blocks/' . $block );
		}
	}

	/**
	 * The three shortcodes.
	 */
	public static function register_shortcodes() {
		add_shortcode( 'invoicekit_invoices', array( self::class, 'invoices_shortcode' ) );
		add_shortcode( 'invoicekit_client_form', array( self::class, 'client_form_shortcode' ) );
		add_shortcode( 'invoicekit_pay_button', array( self::class, 'pay_button_shortcode' ) );
	}

	/**
	 * `[invoicekit_invoices per_page="25" locale="" theme="light"]`.
	 *
	 * @param array|string $atts The shortcode's attributes.
	 * @return string
	 */
	public static function invoices_shortcode( $atts ) {
		$atts = shortcode_atts(
			array(
				'per_page' => 25,
				'locale'   => '',
				'theme'    => 'light',
			),
			$atts,
			'invoicekit_invoices'
		);
		return self::invoices( $atts );
	}

	/**
	 * `[invoicekit_client_form locale="" theme="light"]`.
	 *
	 * @param array|string $atts The shortcode's attributes.
	 * @return string
	 */
	public static function client_form_shortcode( $atts ) {
		$atts = shortcode_atts(
			array(
				'locale' => '',
				'theme'  => 'light',
			),
			$atts,
			'invoicekit_client_form'
		);
		return self::client_form( $atts );
	}

	/**
	 * `[invoicekit_pay_button product="…" locale="" theme="light"]`.
	 *
	 * @param array|string $atts The shortcode's attributes.
	 * @return string
	 */
	public static function pay_button_shortcode( $atts ) {
		$atts = shortcode_atts(
			array(
				'product' => '',
				'label'   => '',
				'locale'  => '',
				'theme'   => 'light',
			),
			$atts,
			'invoicekit_pay_button'
		);
		return self::pay_button( $atts );
	}

	/**
	 * A block's front end, from its `render.php`: the element in the block's wrapper.
	 *
	 * @param string               $element    `invoices`, `client-form` or `pay-button`.
	 * @param array<string, mixed> $attributes The block's attributes (`perPage` reads as `per_page`).
	 * @return string
	 */
	public static function block( $element, array $attributes ) {
		$args = array();
		foreach ( $attributes as $name => $value ) {
			$args[ strtolower( (string) preg_replace( '/[A-Z]/', '_$0', (string) $name ) ) ] = $value;
		}
		$renderers = array(
			'invoices'    => array( self::class, 'invoices' ),
			'client-form' => array( self::class, 'client_form' ),
			'pay-button'  => array( self::class, 'pay_button' ),
		);
		if ( ! isset( $renderers[ $element ] ) ) {
			return '';
		}
		return '<div ' . get_block_wrapper_attributes() . '>' . call_user_func( $renderers[ $element ], $args ) . '</div>';
	}

	/**
	 * The signed-in customer's invoices: the BFF's server-rendered first page when it has one, else the
	 * element, which fetches them. Its token may read invoices, nothing else.
	 *
	 * @param array<string, mixed> $args per_page, locale, theme.
	 * @return string
	 */
	public static function invoices( array $args ) {
		$client_id = self::linked_client_id();
		if ( ! is_user_logged_in() ) {
			return self::message( __( 'Sign in to see your invoices.', 'invoicekit' ), true );
		}
		if ( null === $client_id ) {
			return self::message( __( 'Your account is not linked to a customer record yet, so there are no invoices to show. Please contact us.', 'invoicekit' ) );
		}
		$token = Invoicekit_Portal_Token::issue( $client_id, array( 'invoices:read' ) );
		if ( null === $token ) {
			return self::unavailable();
		}
		$per_page = max( 1, min( 100, (int) ( $args['per_page'] ?? 25 ) ) );
		$locale   = self::locale( $args['locale'] ?? '' );
		$attrs    = array(
			'endpoint'     => Invoicekit_Settings::bff_url(),
			'portal-token' => $token,
			'per-page'     => (string) $per_page,
			'locale'       => $locale,
			'theme'        => self::theme( $args['theme'] ?? '' ),
		);
		self::enqueue_bundle();
		$fragment = Invoicekit_Bff::render_invoice_list(
			$token,
			array(
				'locale'   => $locale,
				'per_page' => $per_page,
			)
		);
		if ( null !== $fragment ) {
			return self::with_attributes( $fragment, 'invoice-list', $attrs );
		}
		return self::tag( 'invoice-list', $attrs );
	}

	/**
	 * The signed-in customer's billing details. Its token may read and write the client, nothing
	 * else; a user without a customer record signs up when sign-up is on.
	 *
	 * @param array<string, mixed> $args locale, theme.
	 * @return string
	 */
	public static function client_form( array $args ) {
		if ( ! is_user_logged_in() ) {
			return self::message( __( 'Sign in to see your billing details.', 'invoicekit' ), true );
		}
		$attrs     = array(
			'endpoint' => Invoicekit_Settings::bff_url(),
			'locale'   => self::locale( $args['locale'] ?? '' ),
			'theme'    => self::theme( $args['theme'] ?? '' ),
		);
		$client_id = self::linked_client_id();
		if ( null === $client_id ) {
			if ( ! Invoicekit_Settings::signup_enabled() ) {
				return self::message( __( 'Your account is not linked to a customer record yet. Please contact us.', 'invoicekit' ) );
			}
			self::enqueue_bundle();
			wp_enqueue_script( 'invoicekit-signup' );
			wp_add_inline_script(
				'invoicekit-signup',
				'window.invoicekitSignup = ' . wp_json_encode(
					array(
						'url'   => esc_url_raw( rest_url( 'invoicekit/v1/link' ) ),
						'nonce' => wp_create_nonce( 'wp_rest' ),
					)
				) . ';',
				'before'
			);
			return self::tag( 'client-form', array( 'mode' => 'create' ) + $attrs );
		}
		$token = Invoicekit_Portal_Token::issue( $client_id, array( 'client:read', 'client:write' ) );
		if ( null === $token ) {
			return self::unavailable();
		}
		self::enqueue_bundle();
		return self::tag( 'client-form', array( 'portal-token' => $token ) + $attrs );
	}

	/**
	 * A buy button for one product. Guests buy with no token; a linked customer buys as themselves,
	 * with a token that may only check out.
	 *
	 * @param array<string, mixed> $args product, label, locale, theme.
	 * @return string
	 */
	public static function pay_button( array $args ) {
		$product = preg_replace( '/[^A-Za-z0-9_-]/', '', (string) ( $args['product'] ?? '' ) );
		if ( '' === $product ) {
			return current_user_can( 'edit_posts' ) ? self::message( __( 'Choose the product this button sells in its settings.', 'invoicekit' ) ) : '';
		}
		$attrs     = array(
			'endpoint' => Invoicekit_Settings::bff_url(),
			'product'  => $product,
			'label'    => sanitize_text_field( (string) ( $args['label'] ?? '' ) ),
			'locale'   => self::locale( $args['locale'] ?? '' ),
			'theme'    => self::theme( $args['theme'] ?? '' ),
		);
		$client_id = self::linked_client_id();
		if ( null !== $client_id ) {
			$attrs['portal-token'] = (string) Invoicekit_Portal_Token::issue( $client_id, array( 'checkout' ) );
		}
		self::enqueue_bundle();
		return self::tag( 'product-pay-button', $attrs );
	}

	/**
	 * The current user's invoicekit client id, or null for a visitor or an unlinked user.
	 *
	 * @return int|null
	 */
	public static function linked_client_id() {
		$user = get_current_user_id();
		if ( ! $user ) {
			return null;
		}
		$id = (int) get_user_meta( $user, Invoicekit_Users::META, true );
		return $id > 0 ? $id : null;
	}

	/**
	 * The element's language: the attribute when it is a language tag, else the site's.
	 *
	 * @param mixed $locale The block's or shortcode's locale.
	 * @return string A BCP 47 tag such as `pl-PL`.
	 */
	private static function locale( $locale ) {
		$locale = trim( (string) $locale );
		if ( '' === $locale || ! preg_match( '/^[A-Za-z]{2,3}([_-][A-Za-z0-9]{2,8})*$/', $locale ) ) {
			$locale = determine_locale();
		}
		return str_replace( '_', '-', $locale );
	}

	/**
	 * One of the elements' themes, light by default.
	 *
	 * @param mixed $theme The block's or shortcode's theme.
	 * @return string
	 */
	private static function theme( $theme ) {
		return in_array( $theme, self::THEMES, true ) ? $theme : 'light';
	}

	/**
	 * An element's tag with its attributes, empty ones left out.
	 *
	 * @param string                $name  The tag name.
	 * @param array<string, string> $attrs Attributes.
	 * @return string
	 */
	private static function tag( $name, array $attrs ) {
		return '<' . $name . self::attributes( $attrs ) . '></' . $name . '>';
	}

	/**
	 * Escaped attributes, each with a leading space.
	 *
	 * @param array<string, string> $attrs Attributes.
	 * @return string
	 */
	private static function attributes( array $attrs ) {
		$html = '';
		foreach ( $attrs as $name => $value ) {
			if ( '' !== (string) $value ) {
				$html .= ' ' . $name . '="' . esc_attr( (string) $value ) . '"';
			}
		}
		return $html;
	}

	/**
	 * The BFF's fragment with the attributes it does not set itself, so the hydrated element pages on
	 * with the same token and address.
	 *
	 * @param string                $fragment The BFF's HTML, starting with the element's tag.
	 * @param string                $name     The tag name.
	 * @param array<string, string> $attrs    Attributes.
	 * @return string
	 */
	private static function with_attributes( $fragment, $name, array $attrs ) {
		$start = strpos( $fragment, '<' . $name );
		$end   = false === $start ? false : strpos( $fragment, '>', $start );
		if ( false === $end ) {
			return self::tag( $name, $attrs );
		}
		$opening = substr( $fragment, $start, $end - $start );
		foreach ( array_keys( $attrs ) as $attribute ) {
			if ( preg_match( '/\s' . preg_quote( $attribute, '/' ) . '(\s|=|$)/', $opening ) ) {
				unset( $attrs[ $attribute ] );
			}
		}
		return substr( $fragment, 0, $end ) . self::attributes( $attrs ) . substr( $fragment, $end );
	}

	/**
	 * A translated notice in place of an element; with a sign-in link when asked.
	 *
	 * @param string $text    The message.
	 * @param bool   $sign_in Whether to link to the sign-in page.
	 * @return string
	 */
	private static function message( $text, $sign_in = false ) {
		$link = '';
		if ( $sign_in ) {
			$link = ' <a href="' . esc_url( wp_login_url( get_permalink() ? get_permalink() : home_url() ) ) . '">' . esc_html__( 'Sign in', 'invoicekit' ) . '</a>';
		}
		return '<p class="invoicekit-notice">' . esc_html( $text ) . $link . '</p>';
	}

	/**
	 * What a customer sees while the plugin has no usable secret (administrators see why).
	 *
	 * @return string
	 */
	private static function unavailable() {
		return self::message( __( 'Your invoices cannot be shown right now. Please try again later.', 'invoicekit' ) );
	}
}
