package dev.levee.jcstress;

/** A key whose hash is the same for every instance: all such keys share one probe chain of a table. */
final class SameHashKey {
    private final String name;

    SameHashKey(String name) {
        this.name = name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SameHashKey && ((SameHashKey) o).name.equals(name);
    }

    @Override
    public int hashCode() {
        return 42;
    }

    @Override
    public String toString() {
        return name;
    }
}
