<?php
/**
 * Linking WordPress users to invoicekit clients: user meta `invoicekit_client_id`, set by an
 * administrator on the profile screen (with a search over the account's clients), or by the user's
 * own sign-up through the client form.
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

/**
 * The profile field, its search, and the sign-up link.
 */
final class Invoicekit_Users {

	const META = 'invoicekit_client_id';

	/**
	 * Hooks the profile screen, the search and the REST route.
	 */
	public static function register() {
		add_action( 'show_user_profile', array( self::class, 'render_field' ) );
		add_action( 'edit_user_profile', array( self::class, 'render_field' ) );
		add_action( 'personal_options_update', array( self::class, 'save_field' ) );
		add_action( 'edit_user_profile_update', array( self::class, 'save_field' ) );
		add_action( 'wp_ajax_invoicekit_search_clients', array( self::class, 'search' ) );
		add_action( 'admin_enqueue_scripts', array( self::class, 'enqueue_admin' ) );
		add_action( 'rest_api_init', array( self::class, 'register_routes' ) );
	}

	/**
	 * Only administrators who may edit users link them: a customer never picks their own record.
	 *
	 * @param int $user_id The user being edited.
	 * @return bool
	 */
	private static function can_link( $user_id ) {
		return current_user_can( 'edit_users' ) && current_user_can( 'edit_user', $user_id );
	}

	/**
	 * The search script, on the profile screens only.
	 *
	 * @param string $hook The admin screen.
	 */
	public static function enqueue_admin( $hook ) {
		if ( ! in_array( $hook, array( 'profile.php', 'user-edit.php' ), true ) || ! current_user_can( 'edit_users' ) ) {
			return;
		}
		wp_enqueue_script( 'invoicekit-user-link', plugins_url( 'assets/user-link.js', INVOICEKIT_FILE ), array( 'wp-i18n' ), INVOICEKIT_VERSION, true );
		wp_set_script_translations( 'invoicekit-user-link', 'invoicekit', INVOICEKIT_DIR . 'languages' );
	}

	/**
	 * The invoicekit section of the profile screen.
	 *
	 * @param WP_User $user The user being edited.
	 */
	public static function render_field( $user ) {
		if ( ! self::can_link( $user->ID ) ) {
			return;
		}
		$client_id = (int) get_user_meta( $user->ID, self::META, true );
		?>
		<h2><?php esc_html_e( 'invoicekit', 'invoicekit' ); ?></h2>
		<table class="form-table" role="presentation">
			<tr>
				<th><label for="invoicekit_client_id"><?php esc_html_e( 'Customer record', 'invoicekit' ); ?></label></th>
				<td>
					<?php wp_nonce_field( 'invoicekit_link_' . $user->ID, 'invoicekit_link_nonce' ); ?>
					<input type="number" min="0" step="1" class="small-text" id="invoicekit_client_id" name="invoicekit_client_id" value="<?php echo esc_attr( $client_id ? (string) $client_id : '' ); ?>" />
					<p class="description"><?php esc_html_e( 'The invoicekit client whose invoices this user sees. Leave empty for none.', 'invoicekit' ); ?></p>
					<p>
						<label for="invoicekit_client_search" class="screen-reader-text"><?php esc_html_e( 'Search the customers', 'invoicekit' ); ?></label>
						<input type="search" class="regular-text" id="invoicekit_client_search" placeholder="<?php esc_attr_e( 'Name, e-mail or tax number', 'invoicekit' ); ?>" data-url="<?php echo esc_url( admin_url( 'admin-ajax.php' ) ); ?>" data-nonce="<?php echo esc_attr( wp_create_nonce( 'invoicekit_search_clients' ) ); ?>" />
						<button type="button" class="button" id="invoicekit_client_search_button"><?php esc_html_e( 'Search', 'invoicekit' ); ?></button>
					</p>
					<div id="invoicekit_client_results" aria-live="polite"></div>
				</td>
			</tr>
		</table>
		<?php
	}

	/**
	 * Saves the link from the profile screen.
	 *
	 * @param int $user_id The user being saved.
	 */
	public static function save_field( $user_id ) {
		if ( ! self::can_link( $user_id ) || ! isset( $_POST['invoicekit_link_nonce'], $_POST['invoicekit_client_id'] ) ) {
			return;
		}
		if ( ! wp_verify_nonce( sanitize_key( wp_unslash( $_POST['invoicekit_link_nonce'] ) ), 'invoicekit_link_' . $user_id ) ) {
			return;
		}
		$client_id = absint( wp_unslash( $_POST['invoicekit_client_id'] ) );
		if ( $client_id > 0 ) {
			update_user_meta( $user_id, self::META, $client_id );
		} else {
			delete_user_meta( $user_id, self::META );
		}
	}

	/**
	 * The customer search behind the profile screen: the service answers this server, never the browser.
	 */
	public static function search() {
		check_ajax_referer( 'invoicekit_search_clients' );
		if ( ! current_user_can( 'edit_users' ) ) {
			wp_send_json_error( array( 'message' => __( 'Sorry, you are not allowed to link users.', 'invoicekit' ) ), 403 );
		}
		$search = isset( $_GET['search'] ) ? sanitize_text_field( wp_unslash( $_GET['search'] ) ) : '';
		if ( strlen( $search ) < 2 ) {
			wp_send_json_success( array() );
		}
		$found = Invoicekit_Bff::search_clients( $search );
		if ( is_wp_error( $found ) ) {
			wp_send_json_error( array( 'message' => $found->get_error_message() ), 502 );
		}
		wp_send_json_success( $found );
	}

	/**
	 * `POST /wp-json/invoicekit/v1/link`: after a sign-up through the client form, links the signed-in
	 * user to the new client. The proof is the portal token the BFF minted for that client, signed
	 * with the shared secret: a user cannot name a client of their choosing.
	 */
	public static function register_routes() {
		register_rest_route(
			'invoicekit/v1',
			'/link',
			array(
				'methods'             => 'POST',
				'permission_callback' => static function () {
					return is_user_logged_in() && Invoicekit_Settings::signup_enabled();
				},
				'args'                => array(
					'portalToken' => array(
						'type'     => 'string',
						'required' => true,
					),
				),
				'callback'            => array( self::class, 'link_signed_up' ),
			)
		);
	}

	/**
	 * Links the user to the client the token speaks for, once.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public static function link_signed_up( $request ) {
		$user = get_current_user_id();
		if ( (int) get_user_meta( $user, self::META, true ) > 0 ) {
			return new WP_Error( 'invoicekit_already_linked', __( 'Your account is already linked to a customer record.', 'invoicekit' ), array( 'status' => 409 ) );
		}
		$client_id = Invoicekit_Portal_Token::client_id( (string) $request->get_param( 'portalToken' ) );
		if ( null === $client_id ) {
			return new WP_Error( 'invoicekit_bad_token', __( 'The sign-up could not be confirmed.', 'invoicekit' ), array( 'status' => 400 ) );
		}
		update_user_meta( $user, self::META, $client_id );
		return new WP_REST_Response( array( 'linked' => true ), 200 );
	}
}
