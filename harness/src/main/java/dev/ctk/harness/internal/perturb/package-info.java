/**
 * The perturbation engine, without a test framework: the plan of points derived from a reference run (crash-restarts
 * at each controller write, stale views, stale lists after a restart, coalesced bursts), the tracker that injects one
 * point into a run on the fake cluster, the end state and the oracle that compares a perturbed run with the
 * reference, and the report's text. Not API. A test-framework adapter runs the test again once per point (ctk's JUnit
 * extension: through a nested launcher) and hands each run's outcome to the oracle.
 *
 * <p>Limits: fake mode only (the tracker hooks the fake's watch deliveries and request journal); crash-restart needs
 * a controller started from a factory ({@code ControllerHarness.start(Supplier)}); a point that never fires in a run
 * is reported as having had no effect, not as a pass.
 */
package dev.ctk.harness.internal.perturb;
