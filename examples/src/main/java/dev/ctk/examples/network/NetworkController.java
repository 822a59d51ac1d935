package dev.ctk.examples.network;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.EventPredicate;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Reconciles {@link Network} custom resources into a {@link NetworkBackend}: creates the network, updates
 * it when the spec changes (changes that only move the resourceVersion, such as a new annotation, are
 * ignored), deletes it when the object is gone, and retries with backoff when the backend fails.
 *
 * <pre>{@code
 * Controller controller = NetworkController.create(client, backend);
 * controller.start();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class NetworkController implements Reconciler {

  private final SharedIndexInformer<Network> networks;
  private final NetworkBackend backend;

  private NetworkController(KubernetesClient client, NetworkBackend backend) {
    this.networks = client.resources(Network.class).inAnyNamespace().runnableInformer(0);
    this.backend = backend;
  }

  /**
   * Builds the controller.
   *
   * @param client a client for the cluster to control
   * @param backend the backend to keep in line
   * @return a controller, not started
   */
  public static Controller create(KubernetesClient client, NetworkBackend backend) {
    NetworkController reconciler = new NetworkController(client, backend);
    return Controller.builder("network")
        .watch(reconciler.networks, EventHandlers.enqueueObject(), EventPredicate.generationChanged())
        .withReconciler(reconciler)
        .build();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    Network network = networks.getIndexer().getByKey(key.toString());
    if (network == null || network.getMetadata().getDeletionTimestamp() != null) {
      if (backend.get(key.toString()) != null) {
        backend.delete(key.toString());
      }
      return Result.done();
    }
    NetworkSpec desired = network.getSpec();
    if (!desired.equals(backend.get(key.toString()))) {
      backend.upsert(key.toString(), desired);
    }
    return Result.done();
  }
}
