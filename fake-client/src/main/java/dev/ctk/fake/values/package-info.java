/**
 * The values that both the fake's public API ({@code dev.ctk.fake}) and its internals use: what the request journal
 * records ({@link dev.ctk.fake.values.ApiRequestRecord}) and how requests are matched ({@link
 * dev.ctk.fake.values.RequestPattern}), fault firings and watch deliveries, admission hooks with their requests and
 * decisions, the garbage-collection mode, and the exception the fake throws. Internal packages import this package
 * and never {@code dev.ctk.fake}, so the public API and the internals do not depend on each other both ways.
 *
 * <p>Limits: these are plain values and a few interfaces; nothing here starts or reads a cluster. A value built by
 * hand (for example {@code ApiRequestRecord.builder()} in a test of a {@code RequestPattern} predicate) is not in any
 * journal.
 *
 * @since 0.1.0
 */
package dev.ctk.fake.values;
