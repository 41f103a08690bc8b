package dev.levee.idempotency;

/**
 * A part of a request that goes into its fingerprint: a reused idempotency key whose request differs in
 * any selected part is refused (HTTP 422) instead of being served the other request's response.
 */
public enum FingerprintPart {
    /** The request method ({@code POST}). */
    METHOD,
    /** The request target: path and query ({@code /charges?currency=eur}). */
    PATH,
    /** The body bytes. */
    BODY
}
