package dev.levee.loadshed.sim;

/**
 * Admits a request only while fewer than {@code slots} are inside: the worker pool of a server whose
 * waiting happens in a front queue (so the front queue's policy decides who waits and who is served).
 */
public final class SlotAdmission implements Admission {
    private final int slots;
    private int inside;

    /**
     * @param slots requests allowed inside at once
     */
    public SlotAdmission(int slots) {
        this.slots = slots;
    }

    @Override
    public boolean tryAdmit(SimRequest request, long nowNanos) {
        if (inside >= slots) {
            return false;
        }
        inside++;
        return true;
    }

    @Override
    public void onComplete(SimRequest request, long nowNanos) {
        inside--;
    }
}
