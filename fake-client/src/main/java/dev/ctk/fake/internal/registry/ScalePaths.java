package dev.ctk.fake.internal.registry;

import java.util.Objects;

/**
 * Where the {@code scale} subresource of a kind reads and writes its numbers, as a CRD's
 * {@code spec.versions[*].subresources.scale} declares them (JSON paths such as {@code .spec.replicas}).
 * Built-in workloads (Deployment, ReplicaSet, StatefulSet, ReplicationController) use {@link #WORKLOADS}.
 *
 * <pre>{@code
 * ScalePaths paths = new ScalePaths(".spec.replicas", ".status.replicas", ".status.selector");
 * paths.specReplicas();   // "spec.replicas" would be written by PUT .../scale
 * }</pre>
 *
 * <p>Only simple dotted paths are understood (no array indexes, no quoted keys), which is also all a CRD may
 * declare here.
 *
 * @param specReplicasPath the desired replica count, e.g. {@code .spec.replicas}
 * @param statusReplicasPath the observed replica count, e.g. {@code .status.replicas}
 * @param labelSelectorPath the pod selector, or {@code null}: a string in selector syntax for custom resources, or
 *     a {@code LabelSelector} object ({@code matchLabels}/{@code matchExpressions}) for built-in workloads (a plain
 *     label map for ReplicationController)
 */
public record ScalePaths(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {

  /** The paths of Deployment, ReplicaSet, StatefulSet and ReplicationController. */
  public static final ScalePaths WORKLOADS = new ScalePaths(".spec.replicas", ".status.replicas", ".spec.selector");

  /** Checks the two required paths are present. */
  public ScalePaths {
    Objects.requireNonNull(specReplicasPath, "specReplicasPath");
    Objects.requireNonNull(statusReplicasPath, "statusReplicasPath");
  }
}
