/**
 * The customer search on the user profile screen: asks this site (which asks the service with the
 * account's token, server-side) and fills the client id with the record the administrator picks.
 */
( function ( wp ) {
	'use strict';
	var __ = wp.i18n.__;
	var input = document.getElementById( 'invoicekit_client_search' );
	var button = document.getElementById( 'invoicekit_client_search_button' );
	var results = document.getElementById( 'invoicekit_client_results' );
	var field = document.getElementById( 'invoicekit_client_id' );
	if ( ! input || ! button || ! results || ! field ) {
		return;
	}

	function say( text ) {
		results.textContent = '';
		var p = document.createElement( 'p' );
		p.textContent = text;
		results.appendChild( p );
	}

	function search() {
		var query = input.value.trim();
		if ( query.length < 2 ) {
			return say( __( 'Type at least two characters.', 'invoicekit' ) );
		}
		say( __( 'Searching…', 'invoicekit' ) );
		var url = new URL( input.dataset.url, window.location.href );
		url.searchParams.set( 'action', 'invoicekit_search_clients' );
		url.searchParams.set( '_ajax_nonce', input.dataset.nonce );
		url.searchParams.set( 'search', query );
		window
			.fetch( url, { credentials: 'same-origin' } )
			.then( function ( response ) {
				return response.json();
			} )
			.then( function ( answer ) {
				if ( ! answer.success ) {
					return say( ( answer.data && answer.data.message ) || __( 'The search failed.', 'invoicekit' ) );
				}
				if ( answer.data.length === 0 ) {
					return say( __( 'No customer matches.', 'invoicekit' ) );
				}
				results.textContent = '';
				var list = document.createElement( 'ul' );
				answer.data.forEach( function ( client ) {
					var item = document.createElement( 'li' );
					var pick = document.createElement( 'button' );
					pick.type = 'button';
					pick.className = 'button-link';
					pick.textContent = [ client.name, client.email, client.tax_no ].filter( Boolean ).join( ' · ' ) + ' (#' + client.id + ')';
					pick.addEventListener( 'click', function () {
						field.value = String( client.id );
						field.focus();
					} );
					item.appendChild( pick );
					list.appendChild( item );
				} );
				results.appendChild( list );
			} )
			.catch( function () {
				say( __( 'The search failed.', 'invoicekit' ) );
			} );
	}

	button.addEventListener( 'click', search );
	input.addEventListener( 'keydown', function ( event ) {
		if ( event.key === 'Enter' ) {
			event.preventDefault();
			search();
		}
	} );
} )( window.wp );
