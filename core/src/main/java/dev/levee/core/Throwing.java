package dev.levee.core;

import java.util.Objects;

/**
 * A policy seen through two declared checked exception types, so a call that throws both — the
 * usual case is {@code HttpClient.send}, which throws {@code IOException} and
 * {@code InterruptedException} — runs in one line and each exception reaches its own {@code catch}:
 *
 * <pre>{@code
 * HttpResponse<String> response = pipeline.throwing(IOException.class, InterruptedException.class)
 *         .execute(() -> client.send(request, BodyHandlers.ofString()));
 * }</pre>
 *
 * <p><b>Guarantees.</b> The same as {@link Policy#execute(CheckedSupplier)}: what the call throws
 * comes out unchanged (the same instance), a refusal is a {@link RejectedException}, an
 * {@link Error} is never swallowed, an interrupt is never lost.
 *
 * <p><b>Why a view.</b> Java infers one type for every thrown type variable of a lambda — the least
 * common supertype of what the lambda throws — so a generic {@code execute} over a two-exception
 * call would declare {@code Exception}. The classes given to {@link Policy#throwing(Class, Class)}
 * fix the two types before the lambda is checked.
 *
 * <p><b>Cost.</b> One small object per {@code throwing} call (keep it in a field to avoid even that);
 * {@code execute} adds one lambda around the call, like {@link Policy#execute(CheckedSupplier)}.
 *
 * @param <E1> the first checked exception type
 * @param <E2> the second checked exception type
 */
public final class Throwing<E1 extends Throwable, E2 extends Throwable> {
    private final Policy policy;

    Throwing(Policy policy) {
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /**
     * The policy the calls run through.
     *
     * @return the policy
     */
    public Policy policy() {
        return policy;
    }

    /**
     * Runs {@code call} under the policy.
     *
     * @param call the call
     * @param <T> the result type
     * @return the call's result
     * @throws E1 what the call threw of the first type, unchanged
     * @throws E2 what the call threw of the second type, unchanged
     * @throws RejectedException if the policy refused the call
     */
    public <T> T execute(CheckedSupplier2<T, E1, E2> call) throws E1, E2 {
        // The call's two exception types become one bound, Throwable, inside the policy; the
        // declaration of this method is the only place they are named, so nothing is wrapped.
        CheckedSupplier<T, Throwable> erased = call::get;
        return Throwing.<T, E1, E2>uncheckedRun(policy, erased);
    }

    // The policy runs a CheckedSupplier<T, Throwable>, so javac sees "throws Throwable"; the call can
    // only throw E1, E2 or an unchecked throwable, so the cast below rethrows exactly what it threw.
    @SuppressWarnings("unchecked")
    private static <T, E1 extends Throwable, E2 extends Throwable> T uncheckedRun(Policy policy,
            CheckedSupplier<T, Throwable> call) throws E1, E2 {
        try {
            return policy.execute(call);
        } catch (Throwable t) {
            throw (E1) t;
        }
    }
}
