package dev.levee.lab;

import dev.levee.core.DeadlineExceededException;
import dev.levee.core.RejectedException;
import dev.levee.core.ShedException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Names why a request did not end in goodput, for the charts. */
final class Outcomes {
    private Outcomes() {}

    static String cause(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof TimeoutException || t instanceof DeadlineExceededException
                || t instanceof java.net.http.HttpTimeoutException) {
            return "timeout";
        }
        if (t instanceof DownstreamErrorException) {
            return "error";
        }
        if (t instanceof ShedException shed && Client.DOWNSTREAM.equals(shed.policyName())) {
            return "shed";
        }
        if (t instanceof RejectedException rejected) {
            return rejected instanceof ShedException shed ? shed.reason() : rejected.kind();
        }
        return "connection";
    }
}
