<?php
/**
 * What this server asks of the BFF and the service: readiness, the server-rendered list, and the
 * customer search. The api_token and the portal secret never leave this server.
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

/**
 * Server-side requests to the BFF and the invoicing service.
 */
final class Invoicekit_Bff {

	const TIMEOUT = 5;

	/**
	 * Asks the BFF's `/readyz`, then whether it accepts a token signed with the portal secret.
	 *
	 * @return array{ok: bool, message: string}
	 */
	public static function check_connection() {
		$base  = Invoicekit_Settings::bff_server_url();
		$ready = wp_remote_get( $base . '/readyz', array( 'timeout' => self::TIMEOUT ) );
		if ( is_wp_error( $ready ) ) {
			/* translators: 1: the BFF's address, 2: the error */
			return self::result( false, sprintf( __( 'The BFF at %1$s could not be reached: %2$s', 'invoicekit' ), $base, $ready->get_error_message() ) );
		}
		$status = (int) wp_remote_retrieve_response_code( $ready );
		if ( 200 !== $status ) {
			/* translators: 1: the BFF's address, 2: an HTTP status code */
			return self::result( false, sprintf( __( 'The BFF at %1$s is not ready (HTTP %2$d).', 'invoicekit' ), $base, $status ) );
		}
		if ( ! Invoicekit_Settings::has_usable_secret() ) {
			return self::result( false, __( 'The BFF is ready, but the portal secret is missing or shorter than 32 characters.', 'invoicekit' ) );
		}
		// A token for a client that need not exist: a wrong secret is a 401, a right one anything else.
		$probe  = wp_remote_get(
			$base . '/client',
			array(
				'timeout' => self::TIMEOUT,
				'headers' => array( 'Authorization' => 'Bearer ' . Invoicekit_Portal_Token::issue( 1, array( 'client:read' ) ) ),
			)
		);
		$status = is_wp_error( $probe ) ? 0 : (int) wp_remote_retrieve_response_code( $probe );
		if ( 401 === $status ) {
			update_option( 'invoicekit_secret_rejected', 1, false );
			return self::result( false, __( 'The BFF is ready, but it refuses the portal secret: it must be the BFF\'s INVOICEKIT_PORTAL_SECRET.', 'invoicekit' ) );
		}
		delete_option( 'invoicekit_secret_rejected' );
		return self::result( true, __( 'The BFF is ready and accepts the portal secret.', 'invoicekit' ) );
	}

	/**
	 * The connection test's answer.
	 *
	 * @param bool   $ok      Whether everything works.
	 * @param string $message What to tell the administrator.
	 * @return array{ok: bool, message: string}
	 */
	private static function result( $ok, $message ) {
		return array(
			'ok'      => $ok,
			'message' => $message,
		);
	}

	/**
	 * The first page of the customer's list, rendered by the BFF (`POST /render/invoice-list`), or
	 * null when the BFF cannot render it (an older BFF answers 404): the page then prints the plain
	 * element, which fetches the list itself.
	 *
	 * @param string               $token   The customer's portal token.
	 * @param array<string, mixed> $options The element's options: locale, per_page.
	 * @return string|null The `<invoice-list>` fragment.
	 */
	public static function render_invoice_list( $token, array $options ) {
		/**
		 * Filters whether the invoices shortcode and block ask the BFF for a server-rendered first page.
		 *
		 * @param bool $enabled Default true.
		 */
		if ( ! apply_filters( 'invoicekit_server_render', true ) ) {
			return null;
		}
		$response = wp_remote_post(
			Invoicekit_Settings::bff_server_url() . '/render/invoice-list',
			array(
				'timeout' => self::TIMEOUT,
				'headers' => array(
					'Authorization' => 'Bearer ' . $token,
					'Content-Type'  => 'application/json',
					'Accept'        => 'text/html',
				),
				'body'    => (string) wp_json_encode( $options ),
			)
		);
		if ( is_wp_error( $response ) ) {
			return null;
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		if ( 401 === $status ) {
			update_option( 'invoicekit_secret_rejected', 1, false );
		}
		$type = (string) wp_remote_retrieve_header( $response, 'content-type' );
		$html = (string) wp_remote_retrieve_body( $response );
		if ( 200 !== $status || ! str_starts_with( $type, 'text/html' ) || ! preg_match( '/^\s*<invoice-list[\s>]/', $html ) ) {
			return null;
		}
		return $html;
	}

	/**
	 * The account's clients matching a search, from the service, for linking a user.
	 *
	 * @param string $search A name, an e-mail address, a tax number or a client id.
	 * @return array<int, array{id: int, name: string, email: string, tax_no: string}>|WP_Error
	 */
	public static function search_clients( $search ) {
		$service = Invoicekit_Settings::service_url();
		$token   = Invoicekit_Settings::api_token();
		if ( '' === $service || '' === $token ) {
			return new WP_Error( 'invoicekit_no_service', __( 'Set the invoicing service and its API token in Settings → invoicekit to search the customers.', 'invoicekit' ) );
		}
		$search = trim( $search );
		if ( preg_match( '/^\d{1,15}$/', $search ) ) {
			$path  = '/clients/' . $search . '.json';
			$query = array();
		} else {
			$path  = '/clients.json';
			$field = is_email( $search ) ? 'email' : ( preg_match( '/^[A-Z]{0,2}[\d -]{8,}$/i', $search ) ? 'tax_no' : 'name' );
			$query = array(
				$field     => $search,
				'per_page' => 20,
			);
		}
		// The interface takes the token as `api_token` on GET; the request goes from this server only.
		$query['api_token'] = $token;
		$response           = wp_remote_get(
			add_query_arg( array_map( 'rawurlencode', $query ), $service . $path ),
			array(
				'timeout' => self::TIMEOUT,
				'headers' => array( 'Accept' => 'application/json' ),
			)
		);
		if ( is_wp_error( $response ) ) {
			return new WP_Error( 'invoicekit_service_down', __( 'The invoicing service could not be reached.', 'invoicekit' ) );
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		if ( 404 === $status ) {
			return array();
		}
		if ( 200 !== $status ) {
			return new WP_Error( 'invoicekit_service_error', __( 'The invoicing service refused the search. Check the API token.', 'invoicekit' ) );
		}
		$data    = json_decode( (string) wp_remote_retrieve_body( $response ), true );
		$clients = isset( $data['id'] ) ? array( $data ) : ( is_array( $data ) ? $data : array() );
		$found   = array();
		foreach ( $clients as $client ) {
			if ( is_array( $client ) && isset( $client['id'] ) ) {
				$found[] = array(
					'id'     => (int) $client['id'],
					'name'   => (string) ( $client['name'] ?? '' ),
					'email'  => (string) ( $client['email'] ?? '' ),
					'tax_no' => (string) ( $client['tax_no'] ?? '' ),
				);
			}
		}
		return $found;
	}
}
