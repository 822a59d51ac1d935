/**
 * The fault rule engine behind {@link dev.ctk.fake.ApiFaults}: installed rules with their schedules and counters,
 * and the decision, for each API request (in process or over HTTP), whether a rule fires and what the server does
 * instead of its normal answer ({@link dev.ctk.fake.internal.fault.FaultAction}).
 *
 * <p>What it does not do: it never looks at the answer a request would get (rules see the request as received:
 * code 0, not yet changed); it does not touch watch streams after they are open (watch faults are elsewhere); it
 * does not apply to writes that do not come over HTTP ({@link dev.ctk.fake.EventInjector}, seeding); a rule's
 * random draws are deterministic only for the same sequence of matching requests, so concurrent clients whose
 * requests interleave differently between runs can see different firings. Patterns, with their
 * {@code RequestPattern.where} predicates, run once per request outside the engine's lock, on the thread that
 * hands the request to the pipeline (in process: the sending thread; over HTTP: the server's event-loop thread): a
 * slow predicate delays requests, and one that calls the fake's API from there can deadlock. Each rule keeps its last {@code InstalledRule.FIRING_LIMIT} firings and the engine its last
 * {@code FaultEngine.FIRING_LIMIT}; counts stay exact.
 */
package dev.ctk.fake.internal.fault;
