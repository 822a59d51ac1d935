package dev.ctk.controller;

import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;

/**
 * The coordination.k8s.io/v1 Lease a {@link LeaderElection} competes for: reads it, creates it, and
 * writes it optimistically (the write carries the resourceVersion it read, so a concurrent writer
 * makes it fail with 409 Conflict).
 */
final class LeaseLock {

  private final KubernetesClient client;
  private final String namespace;
  private final String name;

  LeaseLock(KubernetesClient client, String namespace, String name) {
    this.client = client;
    this.namespace = namespace;
    this.name = name;
  }

  /** The Lease as the API server has it now, or null if there is none. */
  Lease get() {
    return lease().get();
  }

  /** Creates the Lease with {@code spec}; a 409 means another candidate created it first. */
  Lease create(LeaseSpec spec) {
    Lease lease = new LeaseBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build())
        .withSpec(spec)
        .build();
    return client.leases().inNamespace(namespace).resource(lease).create();
  }

  /**
   * Replaces the spec of {@code current} with {@code spec}, only if the Lease still has the
   * resourceVersion of {@code current}; otherwise the API server answers 409 Conflict.
   */
  Lease update(Lease current, LeaseSpec spec) {
    Lease next = new LeaseBuilder(current).withSpec(spec).build();
    return client.leases().inNamespace(namespace).resource(next).update();
  }

  private Resource<Lease> lease() {
    return client.leases().inNamespace(namespace).withName(name);
  }

  @Override
  public String toString() {
    return "Lease " + namespace + "/" + name;
  }
}
