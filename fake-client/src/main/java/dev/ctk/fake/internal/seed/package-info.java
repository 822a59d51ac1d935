/**
 * Seeding: reading multi-document YAML (and v1 Lists) into objects, then validating a whole batch before anything
 * is written (CRDs first, Namespaces next, then the rest).
 *
 * <p>Validation and every write of a batch run in one store transaction (the store's write lock, held throughout),
 * so a concurrent writer can neither invalidate the plan nor slip in between two writes of the batch.
 *
 * <p>Limits: JSON and YAML only (no JSON Lines, no kustomize); CRD validity is checked only as far as the registry
 * needs (names, scope, versions). A write that the store still rejects after this validation (defaulting and
 * validation of built-in kinds run at write time) rolls the batch back: the objects written before it are removed
 * again, ignoring finalizers, so nothing is half-loaded; open watches see them come and go.
 */
package dev.ctk.fake.internal.seed;
