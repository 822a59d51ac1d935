/**
 * Small pieces that several engines of the fake share and that depend on nothing of the fake: kube's semantic
 * equality of JSON values, the options of one write, the one JSON writer of answers and stored bytes ({@code
 * WireJson}) and the mark of an object serialized once for all its readers ({@code FrozenObject}). Kept apart so that
 * admission, server-side apply, the store, the watches and the HTTP layer can each use them without depending on one
 * another both ways.
 *
 * <p>Limits: nothing here knows a kind, a schema or the store.
 */
package dev.ctk.fake.internal.common;
