/**
 * The fault rule engine behind {@link dev.ctk.fake.ApiFaults}: installed rules with their schedules and counters,
 * and the decision, for each request that arrives over HTTP, whether a rule fires and what the server does
 * instead of its normal answer ({@link dev.ctk.fake.internal.fault.FaultAction}).
 *
 * <p>What it does not do: it never looks at the answer a request would get (rules see the request as received:
 * code 0, not yet changed); it does not touch watch streams after they are open (watch faults are elsewhere); it
 * does not apply to writes that do not come over HTTP ({@link dev.ctk.fake.EventInjector}, seeding); a rule's
 * random draws are deterministic only for the same sequence of matching requests, so concurrent clients whose
 * requests interleave differently between runs can see different firings.
 */
package dev.ctk.fake.internal.fault;
