/**
 * Small pieces that several engines of the fake share and that depend on nothing of the fake: kube's semantic
 * equality of JSON values and the options of one write. Kept apart so that admission, server-side apply and the
 * store can each use them without depending on one another both ways.
 *
 * <p>Limits: nothing here knows a kind, a schema or the store.
 */
package dev.ctk.fake.internal.common;
