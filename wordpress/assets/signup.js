/**
 * After a signed-in user without a customer record signs up through `<client-form mode="create">`,
 * links the new record to their account, proven by the portal token the BFF minted for it, then
 * reloads so the page shows their own details.
 */
( function () {
	'use strict';
	var config = window.invoicekitSignup;
	if ( ! config ) {
		return;
	}
	document.addEventListener( 'client-saved', function ( event ) {
		var token = event.detail && event.detail.portalToken;
		if ( ! token ) {
			return;
		}
		window
			.fetch( config.url, {
				method: 'POST',
				credentials: 'same-origin',
				headers: { 'Content-Type': 'application/json', 'X-WP-Nonce': config.nonce },
				body: JSON.stringify( { portalToken: token } ),
			} )
			.then( function ( response ) {
				if ( response.ok ) {
					window.location.reload();
				}
			} );
	} );
} )();
