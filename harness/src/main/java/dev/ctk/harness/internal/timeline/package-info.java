/**
 * The failure report and timeline of a failed test: where it ran, each controller's state, and every source the
 * scope recorded (API requests, injected events, fault firings and watch deliveries in fake mode; work-queue changes
 * and reconciles in every mode) merged in time order, as text (report entries, standard error) and an HTML page. Not
 * API: a test-framework adapter calls it through {@code TestScope.reportFailure(FailureContext)}.
 *
 * <p>Limits: real modes have no request journal, so their timelines show the controllers' side only; the text shows
 * the last entries and each error by its first line (the HTML page has them whole).
 */
package dev.ctk.harness.internal.timeline;
