package dev.ctk.fake.internal.gc;

/**
 * One piece of the collector's work, as kube's work queues hold them: a key (two items with the same key waiting
 * at once are one), what it does in words (for the timeout message of {@code awaitGarbageCollection}), and the
 * work itself.
 *
 * @param key e.g. {@code namespace/team} or {@code removed/<uid>}
 * @param description e.g. {@code empty and remove namespace team}
 * @param action the work: store calls, each under the store lock
 */
record WorkItem(String key, String description, Runnable action) {
}
