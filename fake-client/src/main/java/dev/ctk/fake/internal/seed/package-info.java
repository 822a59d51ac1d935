/**
 * Seeding: reading multi-document YAML (and v1 Lists) into objects, then validating a whole batch before anything
 * is written (CRDs first, Namespaces next, then the rest).
 *
 * <p>Limits: JSON and YAML only (no JSON Lines, no kustomize); CRD validity is checked only as far as the registry
 * needs (names, scope, versions); a write that the store still rejects after validation (a rule the validation does
 * not foresee) leaves the earlier objects of the batch in place.
 */
package dev.ctk.fake.internal.seed;
