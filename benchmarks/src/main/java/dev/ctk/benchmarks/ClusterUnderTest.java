package dev.ctk.benchmarks;

import dev.ctk.fake.FakeCluster;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Objects;

/**
 * One running API server of a {@link Target} and the fabric8 client bound to it; {@link #close()} stops both.
 *
 * <pre>{@code
 * try (ClusterUnderTest cluster = Target.FABRIC8_CRUD_MOCK.start()) {
 *   KubernetesClient client = cluster.client();
 * }
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ClusterUnderTest implements AutoCloseable {

  private final Target target;
  private final KubernetesClient client;
  private final FakeCluster fake;
  private final Runnable stop;

  ClusterUnderTest(Target target, KubernetesClient client, FakeCluster fake, Runnable stop) {
    this.target = Objects.requireNonNull(target, "target");
    this.client = Objects.requireNonNull(client, "client");
    this.fake = fake;
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  /**
   * Which server this is.
   *
   * @return the target
   */
  public Target target() {
    return target;
  }

  /**
   * The client bound to the server; its default namespace is where the benchmarks write. Closed by
   * {@link #close()}.
   *
   * @return the client
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Stores an object the quickest way the server offers, for loading state that is not measured: ctk's fake
   * through {@code EventInjector.add} (the same stored state as an API create, without HTTP), fabric8's mock
   * through a client create.
   *
   * @param object the object, in the client's namespace
   * @param <T> its type
   * @throws IllegalStateException on a target that stores nothing ({@link Target#storesObjects()})
   */
  public <T extends HasMetadata> void store(T object) {
    if (!target.storesObjects()) {
      throw new IllegalStateException("Cannot store " + object.getKind() + " " + object.getMetadata().getName()
          + " on " + target + ": that target stores nothing (see Target.storesObjects()). Load objects only on "
          + "targets that store them.");
    }
    if (fake != null) {
      if (object.getMetadata().getNamespace() == null) {
        object.getMetadata().setNamespace(client.getNamespace());
      }
      fake.events().add(object);
    } else {
      client.resource(object).create();
    }
  }

  @Override
  public void close() {
    stop.run();
  }

  @Override
  public String toString() {
    return target + " at " + client.getMasterUrl();
  }
}
