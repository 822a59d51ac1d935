/**
 * Internals of the fake API server; nothing here is API. {@link dev.ctk.fake.internal.FakeApiServer} assembles the
 * parts, each in its own package, split by concern so that later issues add to one part at a time:
 *
 * <ul>
 *   <li>{@code registry}: which resources exist (the built-in table, CRD-defined kinds), for routing and discovery;
 *   <li>{@code store}: objects, the global resourceVersion, metadata rules, pagination, CRD side effects;
 *   <li>{@code admission}: kube's defaulting and validation per kind, called by the store on every write;
 *   <li>{@code gc}: what kube-controller-manager does about deletions and owner references (garbage collector,
 *       namespace controller), on its own thread per cluster;
 *   <li>{@code watch}: the bounded history of committed changes and the fan-out to open watches;
 *   <li>{@code http}: the Vert.x endpoint, URL parsing, verbs, patch-type selection, discovery, both watch
 *       transports, the request journal;
 *   <li>{@code patch} and {@code select}: pure engines (JSON patch, merge patch, strategic merge patch; label and
 *       field selectors);
 *   <li>{@code seed}: reading and validating seed YAML and objects;
 *   <li>{@code status}: kube's Status errors.
 * </ul>
 *
 * <p>Threading: every write and every watch registration happens under one store lock, held for microseconds and
 * never across I/O; network writes happen on Vert.x event loops; the garbage collector writes from its own thread
 * ({@code ctk-fake-<n>-gc}) through the same store calls. Timestamps come from an injected {@link java.time.Clock},
 * the namespace controller's grace period from a {@code TimeSource} (a {@code VirtualTime} in virtual-time tests),
 * and randomness from a seedable source.
 *
 * <p>Limits: not designed for large object counts or high throughput (lists copy references, selectors scan);
 * defaulting and validation cover the kinds listed in {@code admission}; there are no admission plugins, hooks or
 * fault-injection step yet (see {@link dev.ctk.fake}).
 */
package dev.ctk.fake.internal;
