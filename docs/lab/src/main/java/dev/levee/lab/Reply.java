package dev.levee.lab;

/**
 * The downstream's answer to one attempt.
 *
 * @param status 200, 500 (the dependency failed) or 503 (shed)
 * @param reason for a 503 the shed reason ({@code X-Shed-Reason}); else empty
 */
record Reply(int status, String reason) {
    static final Reply OK = new Reply(200, "");
    static final Reply ERROR = new Reply(500, "");

    static Reply shed(String reason) {
        return new Reply(503, reason);
    }
}
