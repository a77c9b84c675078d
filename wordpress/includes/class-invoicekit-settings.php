<?php
/**
 * Settings → invoicekit: the BFF's address, the portal secret, the service for the client search,
 * sign-up, and a connection test.
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

/**
 * The plugin's options and its settings page.
 */
final class Invoicekit_Settings {

	/** HS256 wants a key at least as long as its hash, as the BFF insists. */
	const MIN_SECRET_BYTES = 32;

	const PAGE = 'invoicekit';

	/**
	 * Hooks the settings page, its options and the admin notices.
	 */
	public static function register() {
		add_action( 'admin_init', array( self::class, 'register_settings' ) );
		add_action( 'admin_menu', array( self::class, 'add_page' ) );
		add_action( 'admin_notices', array( self::class, 'show_notices' ) );
		add_action( 'admin_post_invoicekit_test_connection', array( self::class, 'test_connection' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( INVOICEKIT_FILE ), array( self::class, 'action_links' ) );
	}

	/**
	 * The BFF's address as the browser reaches it (a path such as `/bff` or a full URL).
	 *
	 * @return string
	 */
	public static function bff_url() {
		$url = trim( (string) get_option( 'invoicekit_bff_url', '/bff' ) );
		return '' === $url ? '/bff' : untrailingslashit( $url );
	}

	/**
	 * The BFF's address as this server reaches it: a path is resolved against the site's own origin.
	 *
	 * @return string
	 */
	public static function bff_server_url() {
		$url = self::bff_url();
		if ( str_starts_with( $url, '/' ) ) {
			$home = wp_parse_url( home_url() );
			$url  = $home['scheme'] . '://' . $home['host'] . ( isset( $home['port'] ) ? ':' . $home['port'] : '' ) . $url;
		}
		/**
		 * Filters the address this server uses to reach the BFF, for sites whose server reaches it
		 * another way than the browser does (say, `http://127.0.0.1:8788/bff`).
		 *
		 * @param string $url The BFF's address.
		 */
		return untrailingslashit( (string) apply_filters( 'invoicekit_bff_server_url', $url ) );
	}

	/**
	 * The portal secret: the constant `INVOICEKIT_PORTAL_SECRET` from wp-config.php, or else the option.
	 *
	 * @return string Empty when none is set.
	 */
	public static function portal_secret() {
		if ( defined( 'INVOICEKIT_PORTAL_SECRET' ) && is_string( INVOICEKIT_PORTAL_SECRET ) ) {
			return INVOICEKIT_PORTAL_SECRET;
		}
		return (string) get_option( 'invoicekit_portal_secret', '' );
	}

	/**
	 * Whether the secret is long enough to sign portal tokens with.
	 *
	 * @return bool
	 */
	public static function has_usable_secret() {
		return strlen( self::portal_secret() ) >= self::MIN_SECRET_BYTES;
	}

	/**
	 * The invoicing service's address, for the client search on the profile screen.
	 *
	 * @return string
	 */
	public static function service_url() {
		if ( defined( 'INVOICEKIT_SERVICE_URL' ) && is_string( INVOICEKIT_SERVICE_URL ) ) {
			return untrailingslashit( INVOICEKIT_SERVICE_URL );
		}
		return untrailingslashit( trim( (string) get_option( 'invoicekit_service_url', '' ) ) );
	}

	/**
	 * The account's api_token, which opens the whole account: it stays on this server.
	 *
	 * @return string
	 */
	public static function api_token() {
		if ( defined( 'INVOICEKIT_API_TOKEN' ) && is_string( INVOICEKIT_API_TOKEN ) ) {
			return INVOICEKIT_API_TOKEN;
		}
		return (string) get_option( 'invoicekit_api_token', '' );
	}

	/**
	 * Whether signed-in users without a customer record may create one with the client form.
	 *
	 * @return bool
	 */
	public static function signup_enabled() {
		return (bool) get_option( 'invoicekit_signup', false );
	}

	/**
	 * Registers the options with their sanitizers.
	 */
	public static function register_settings() {
		register_setting(
			self::PAGE,
			'invoicekit_bff_url',
			array(
				'type'              => 'string',
				'default'           => '/bff',
				'sanitize_callback' => array( self::class, 'sanitize_url_or_path' ),
			)
		);
		register_setting(
			self::PAGE,
			'invoicekit_service_url',
			array(
				'type'              => 'string',
				'default'           => '',
				'sanitize_callback' => array( self::class, 'sanitize_url_or_path' ),
			)
		);
		register_setting(
			self::PAGE,
			'invoicekit_portal_secret',
			array(
				'type'              => 'string',
				'default'           => '',
				'sanitize_callback' => array( self::class, 'sanitize_portal_secret' ),
			)
		);
		register_setting(
			self::PAGE,
			'invoicekit_api_token',
			array(
				'type'              => 'string',
				'default'           => '',
				'sanitize_callback' => array( self::class, 'sanitize_api_token' ),
			)
		);
		register_setting(
			self::PAGE,
			'invoicekit_signup',
			array(
				'type'              => 'boolean',
				'default'           => false,
				'sanitize_callback' => 'rest_sanitize_boolean',
			)
		);
	}

	/**
	 * A full http(s) URL or a path starting with `/`; anything else is dropped.
	 *
	 * @param mixed $value The submitted value.
	 * @return string
	 */
	public static function sanitize_url_or_path( $value ) {
		$value = trim( sanitize_text_field( (string) $value ) );
		if ( '' === $value ) {
			return '';
		}
		if ( preg_match( '#^/(?!/)#', $value ) ) {
			return untrailingslashit( (string) preg_replace( '#[^A-Za-z0-9/_.~-]#', '', $value ) );
		}
		return untrailingslashit( esc_url_raw( $value, array( 'http', 'https' ) ) );
	}

	/**
	 * A new secret replaces the stored one; an empty field keeps it, since the page never shows it.
	 *
	 * @param mixed $value The submitted value.
	 * @return string
	 */
	public static function sanitize_portal_secret( $value ) {
		return self::sanitize_secret( $value, 'invoicekit_portal_secret' );
	}

	/**
	 * As the portal secret: an empty field keeps the stored token.
	 *
	 * @param mixed $value The submitted value.
	 * @return string
	 */
	public static function sanitize_api_token( $value ) {
		return self::sanitize_secret( $value, 'invoicekit_api_token' );
	}

	/**
	 * Keeps the stored value when the field was left empty.
	 *
	 * @param mixed  $value  The submitted value.
	 * @param string $option The option's name.
	 * @return string
	 */
	private static function sanitize_secret( $value, $option ) {
		$value = trim( (string) $value );
		if ( '' === $value ) {
			return (string) get_option( $option, '' );
		}
		// Secrets are compared byte for byte: keep them as typed, minus anything that is not printable.
		return (string) preg_replace( '/[^\x21-\x7e]/', '', $value );
	}

	/**
	 * Adds Settings → invoicekit.
	 */
	public static function add_page() {
		add_options_page(
			__( 'invoicekit', 'invoicekit' ),
			__( 'invoicekit', 'invoicekit' ),
			'manage_options',
			self::PAGE,
			array( self::class, 'render_page' )
		);
	}

	/**
	 * A Settings link beside Deactivate on the Plugins screen.
	 *
	 * @param string[] $links The plugin's action links.
	 * @return string[]
	 */
	public static function action_links( $links ) {
		$url = admin_url( 'options-general.php?page=' . self::PAGE );
		array_unshift( $links, '<a href="' . esc_url( $url ) . '">' . esc_html__( 'Settings', 'invoicekit' ) . '</a>' );
		return $links;
	}

	/**
	 * Prints the settings page.
	 */
	public static function render_page() {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$secret_from_constant = defined( 'INVOICEKIT_PORTAL_SECRET' );
		$token_from_constant  = defined( 'INVOICEKIT_API_TOKEN' );
		$service_constant     = defined( 'INVOICEKIT_SERVICE_URL' );
		$result               = get_transient( 'invoicekit_connection_result' );
		?>
		<div class="wrap">
			<h1><?php echo esc_html( get_admin_page_title() ); ?></h1>
			<?php if ( is_array( $result ) ) : ?>
				<div class="notice notice-<?php echo esc_attr( $result['ok'] ? 'success' : 'error' ); ?> is-dismissible" id="invoicekit-connection-result">
					<p><?php echo esc_html( $result['message'] ); ?></p>
				</div>
				<?php delete_transient( 'invoicekit_connection_result' ); ?>
			<?php endif; ?>
			<form method="post" action="options.php">
				<?php settings_fields( self::PAGE ); ?>
				<table class="form-table" role="presentation">
					<tr>
						<th scope="row"><label for="invoicekit_bff_url"><?php esc_html_e( 'BFF address', 'invoicekit' ); ?></label></th>
						<td>
							<input type="text" class="regular-text code" id="invoicekit_bff_url" name="invoicekit_bff_url" value="<?php echo esc_attr( self::bff_url() ); ?>" placeholder="/bff" />
							<p class="description"><?php esc_html_e( 'Where the browser reaches the invoicekit BFF: a path on this site, such as /bff, proxied by the web server, or a full address.', 'invoicekit' ); ?></p>
						</td>
					</tr>
					<tr>
						<th scope="row"><label for="invoicekit_portal_secret"><?php esc_html_e( 'Portal secret', 'invoicekit' ); ?></label></th>
						<td>
							<?php if ( $secret_from_constant ) : ?>
								<p><?php esc_html_e( 'Set in wp-config.php (INVOICEKIT_PORTAL_SECRET).', 'invoicekit' ); ?></p>
							<?php else : ?>
								<input type="password" class="regular-text" id="invoicekit_portal_secret" name="invoicekit_portal_secret" value="" autocomplete="new-password" placeholder="<?php echo esc_attr( self::has_usable_secret() ? __( 'Saved. Type a new one to replace it.', 'invoicekit' ) : '' ); ?>" />
								<p class="description"><?php esc_html_e( 'The same INVOICEKIT_PORTAL_SECRET the BFF has, at least 32 characters. Better kept in wp-config.php as define( \'INVOICEKIT_PORTAL_SECRET\', \'…\' );', 'invoicekit' ); ?></p>
							<?php endif; ?>
						</td>
					</tr>
					<tr>
						<th scope="row"><label for="invoicekit_service_url"><?php esc_html_e( 'Invoicing service', 'invoicekit' ); ?></label></th>
						<td>
							<?php if ( $service_constant ) : ?>
								<p><code><?php echo esc_html( self::service_url() ); ?></code> <?php esc_html_e( '(set in wp-config.php)', 'invoicekit' ); ?></p>
							<?php else : ?>
								<input type="url" class="regular-text code" id="invoicekit_service_url" name="invoicekit_service_url" value="<?php echo esc_attr( self::service_url() ); ?>" />
							<?php endif; ?>
							<p class="description"><?php esc_html_e( 'Optional: the service\'s address as this server reaches it, so the user profile screen can search the account\'s customers.', 'invoicekit' ); ?></p>
						</td>
					</tr>
					<tr>
						<th scope="row"><label for="invoicekit_api_token"><?php esc_html_e( 'API token', 'invoicekit' ); ?></label></th>
						<td>
							<?php if ( $token_from_constant ) : ?>
								<p><?php esc_html_e( 'Set in wp-config.php (INVOICEKIT_API_TOKEN).', 'invoicekit' ); ?></p>
							<?php else : ?>
								<input type="password" class="regular-text" id="invoicekit_api_token" name="invoicekit_api_token" value="" autocomplete="new-password" placeholder="<?php echo esc_attr( '' !== self::api_token() ? __( 'Saved. Type a new one to replace it.', 'invoicekit' ) : '' ); ?>" />
							<?php endif; ?>
							<p class="description"><?php esc_html_e( 'Optional, for the customer search only. It stays on this server and is never sent to a browser.', 'invoicekit' ); ?></p>
						</td>
					</tr>
					<tr>
						<th scope="row"><?php esc_html_e( 'Sign-up', 'invoicekit' ); ?></th>
						<td>
							<label><input type="checkbox" name="invoicekit_signup" value="1" <?php checked( self::signup_enabled() ); ?> /> <?php esc_html_e( 'Signed-in users without a customer record create one by saving the billing details form', 'invoicekit' ); ?></label>
							<p class="description"><?php esc_html_e( 'The BFF must run with sign-up on, answering a portal token for the new customer.', 'invoicekit' ); ?></p>
						</td>
					</tr>
				</table>
				<?php submit_button(); ?>
			</form>
			<h2><?php esc_html_e( 'Connection test', 'invoicekit' ); ?></h2>
			<p><?php esc_html_e( 'Asks the BFF whether it is ready, and whether it accepts the portal secret.', 'invoicekit' ); ?></p>
			<form method="post" action="<?php echo esc_url( admin_url( 'admin-post.php' ) ); ?>">
				<input type="hidden" name="action" value="invoicekit_test_connection" />
				<?php wp_nonce_field( 'invoicekit_test_connection' ); ?>
				<?php submit_button( __( 'Test the connection', 'invoicekit' ), 'secondary', 'submit', false ); ?>
			</form>
		</div>
		<?php
	}

	/**
	 * Runs the connection test and goes back to the settings page with its result.
	 */
	public static function test_connection() {
		if ( ! current_user_can( 'manage_options' ) ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to manage these settings.', 'invoicekit' ), '', array( 'response' => 403 ) );
		}
		check_admin_referer( 'invoicekit_test_connection' );
		$result = Invoicekit_Bff::check_connection();
		set_transient( 'invoicekit_connection_result', $result, MINUTE_IN_SECONDS );
		wp_safe_redirect( admin_url( 'options-general.php?page=' . self::PAGE ) );
		exit;
	}

	/**
	 * What is missing or wrong, for administrators, on every admin screen: never a fatal error.
	 */
	public static function show_notices() {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		$settings = '<a href="' . esc_url( admin_url( 'options-general.php?page=' . self::PAGE ) ) . '">' . esc_html__( 'Settings → invoicekit', 'invoicekit' ) . '</a>';
		$problem  = '';
		if ( '' === self::portal_secret() ) {
			/* translators: %s: a link to the plugin's settings page */
			$problem = __( 'invoicekit has no portal secret, so customers see no invoices. Set INVOICEKIT_PORTAL_SECRET in wp-config.php or in %s.', 'invoicekit' );
		} elseif ( ! self::has_usable_secret() ) {
			/* translators: %s: a link to the plugin's settings page */
			$problem = __( 'invoicekit\'s portal secret is shorter than 32 characters, so customers see no invoices. Set the BFF\'s secret in wp-config.php or in %s.', 'invoicekit' );
		} elseif ( get_option( 'invoicekit_secret_rejected' ) ) {
			/* translators: %s: a link to the plugin's settings page */
			$problem = __( 'The invoicekit BFF refused the portal secret, so customers see no invoices. Make it the BFF\'s INVOICEKIT_PORTAL_SECRET, then run the connection test in %s.', 'invoicekit' );
		}
		if ( '' !== $problem ) {
			printf(
				'<div class="notice notice-error" id="invoicekit-secret-notice"><p>%s</p></div>',
				wp_kses( sprintf( $problem, $settings ), array( 'a' => array( 'href' => array() ) ) )
			);
		}
	}
}
