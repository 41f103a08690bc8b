package dev.levee.lab;

/** The downstream answered 500: its dependency failed. */
final class DownstreamErrorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DownstreamErrorException() {
        super("downstream answered 500", null, false, false);
    }
}
