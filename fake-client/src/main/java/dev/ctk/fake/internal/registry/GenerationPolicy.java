package dev.ctk.fake.internal.registry;

/**
 * How a kind maintains {@code metadata.generation}, as the kind's registry strategy in kube-apiserver does.
 *
 * <p>"Tracked" kinds start at generation 1 and bump it on every write that changes anything outside
 * {@code metadata} and (when the kind has a status subresource) {@code status}.
 */
public enum GenerationPolicy {
  /** No generation: the field is removed on create and kept unchanged on update (ConfigMap, Pod in 1.32, ...). */
  NONE,
  /** Generation 1 on create, +1 when anything outside metadata and status changes. */
  TRACKED,
  /** As {@link #TRACKED}, and annotation changes bump it too (Deployment: annotations are copied to ReplicaSets). */
  TRACKED_WITH_ANNOTATIONS
}
