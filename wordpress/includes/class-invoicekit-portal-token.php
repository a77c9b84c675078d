<?php
/**
 * Portal tokens as the BFF's `issuePortalToken` makes them: HS256 JWTs, issuer `invoicekit-bff`,
 * audience `invoicekit-portal`, `sub` the client id, `scope` the granted scopes.
 *
 * @package Invoicekit
 */

defined( 'ABSPATH' ) || exit;

/**
 * Mints and checks portal tokens with the portal secret.
 */
final class Invoicekit_Portal_Token {

	const ISSUER   = 'invoicekit-bff';
	const AUDIENCE = 'invoicekit-portal';
	const SCOPES   = array( 'invoices:read', 'client:read', 'client:write', 'checkout' );

	/** Fifteen minutes: a page left open longer is reloaded for a fresh token. */
	const TTL = 900;

	/**
	 * A token for one client with only the scopes asked for, or null without a usable secret.
	 *
	 * @param int      $client_id The invoicing service's id of the client.
	 * @param string[] $scopes    Some of self::SCOPES.
	 * @param int|null $now       The time, for tests.
	 * @return string|null
	 */
	public static function issue( $client_id, array $scopes, $now = null ) {
		$client_id = (int) $client_id;
		$scopes    = array_values( array_intersect( self::SCOPES, $scopes ) );
		if ( $client_id < 1 || array() === $scopes || ! Invoicekit_Settings::has_usable_secret() ) {
			return null;
		}
		$now    = null === $now ? time() : (int) $now;
		$header = self::encode( (string) wp_json_encode( array( 'alg' => 'HS256', 'typ' => 'JWT' ) ) );
		$claims = self::encode(
			(string) wp_json_encode(
				array(
					'scope' => implode( ' ', $scopes ),
					'sub'   => (string) $client_id,
					'iss'   => self::ISSUER,
					'aud'   => self::AUDIENCE,
					'iat'   => $now,
					'exp'   => $now + self::TTL,
				)
			)
		);
		$signature = self::encode( hash_hmac( 'sha256', $header . '.' . $claims, Invoicekit_Settings::portal_secret(), true ) );
		return $header . '.' . $claims . '.' . $signature;
	}

	/**
	 * The client id a token signed with the portal secret speaks for, or null when it is not one
	 * (wrong signature, wrong issuer or audience, expired, malformed).
	 *
	 * @param string $token The token.
	 * @return int|null
	 */
	public static function client_id( $token ) {
		if ( ! Invoicekit_Settings::has_usable_secret() || ! preg_match( '/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/', (string) $token ) ) {
			return null;
		}
		list( $header, $claims, $signature ) = explode( '.', $token );
		$expected                            = self::encode( hash_hmac( 'sha256', $header . '.' . $claims, Invoicekit_Settings::portal_secret(), true ) );
		if ( ! hash_equals( $expected, $signature ) ) {
			return null;
		}
		$head = json_decode( (string) self::decode( $header ), true );
		$body = json_decode( (string) self::decode( $claims ), true );
		if ( ! is_array( $head ) || ! is_array( $body ) || 'HS256' !== ( $head['alg'] ?? '' ) ) {
			return null;
		}
		$audience = (array) ( $body['aud'] ?? array() );
		if ( self::ISSUER !== ( $body['iss'] ?? '' ) || ! in_array( self::AUDIENCE, $audience, true ) || ! is_int( $body['exp'] ?? null ) || $body['exp'] <= time() ) {
			return null;
		}
		$sub = (string) ( $body['sub'] ?? '' );
		return preg_match( '/^[1-9]\d{0,15}$/', $sub ) ? (int) $sub : null;
	}

	/**
	 * Base64url without padding.
	 *
	 * @param string $data Bytes.
	 * @return string
	 */
	private static function encode( $data ) {
		// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- JWTs are base64url.
		return rtrim( strtr( base64_encode( $data ), '+/', '-_' ), '=' );
	}

	/**
	 * Bytes from base64url.
	 *
	 * @param string $data Base64url text.
	 * @return string|false
	 */
	private static function decode( $data ) {
		// phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_decode -- JWTs are base64url.
		return base64_decode( strtr( $data, '-_', '+/' ), true );
	}
}
