package dev.ctk.examples.nginx;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The classic informer exercise: every Deployment labelled {@code app=nginx} gets a Service of the same
 * name, owned by the Deployment, that selects the Deployment's pods and exposes its container ports.
 *
 * <p>Level-triggered: {@link #reconcile(ObjectKey)} compares the Service that should exist with the one
 * that does, whatever event woke it. A Deployment that is deleted, or loses its {@code app=nginx} label,
 * loses its Service; a Service edited by hand is put back; a Service that is deleted is recreated.
 *
 * <pre>{@code
 * Controller controller = NginxServiceController.create(client);
 * controller.start();
 * }</pre>
 *
 * @since 0.1.0
 */
public final class NginxServiceController implements Reconciler {

  /** The label a Deployment must carry to get a Service. */
  public static final Map<String, String> NGINX_LABEL = Map.of("app", "nginx");

  private final KubernetesClient client;
  private final SharedIndexInformer<Deployment> deployments;
  private final SharedIndexInformer<Service> services;

  private NginxServiceController(KubernetesClient client) {
    this.client = client;
    this.deployments = client.apps().deployments().inAnyNamespace().runnableInformer(0);
    this.services = client.services().inAnyNamespace().runnableInformer(0);
  }

  /**
   * Builds the controller: Deployments enqueue themselves, Services enqueue the Deployment that owns them.
   *
   * @param client a client for the cluster to control
   * @return a controller, not started
   */
  // region:create
  public static Controller create(KubernetesClient client) {
    NginxServiceController reconciler = new NginxServiceController(client);
    return Controller.builder("nginx-service")
        .watch(reconciler.deployments, EventHandlers.enqueueObject())
        .watch(reconciler.services, EventHandlers.enqueueOwner("apps", "Deployment", true))
        .withReconciler(reconciler)
        .build();
  }
  // endregion:create

  @Override
  public Result reconcile(ObjectKey key) {
    Deployment deployment = deployments.getIndexer().getByKey(key.toString());
    Service actual = services.getIndexer().getByKey(key.toString());
    if (deployment == null || deployment.getMetadata().getDeletionTimestamp() != null || !isNginx(deployment)) {
      if (actual != null && isOwnedBy(actual, deployment, key)) {
        client.services().inNamespace(key.namespace()).withName(key.name()).delete();
      }
      return Result.done();
    }
    Service desired = desiredService(deployment);
    if (actual == null) {
      client.services().inNamespace(key.namespace()).resource(desired).create();
    } else if (!Objects.equals(actual.getSpec().getSelector(), desired.getSpec().getSelector())
        || !samePorts(actual.getSpec().getPorts(), desired.getSpec().getPorts())) {
      client.services().inNamespace(key.namespace()).withName(key.name()).edit(service -> {
        service.getSpec().setSelector(desired.getSpec().getSelector());
        service.getSpec().setPorts(desired.getSpec().getPorts());
        return service;
      });
    }
    return Result.done();
  }

  private static boolean isNginx(Deployment deployment) {
    Map<String, String> labels = deployment.getMetadata().getLabels();
    return labels != null && NGINX_LABEL.entrySet().stream()
        .allMatch(label -> label.getValue().equals(labels.get(label.getKey())));
  }

  /** Only a Service this controller made (owned by a Deployment of that name) is ever deleted. */
  private static boolean isOwnedBy(Service service, Deployment deployment, ObjectKey key) {
    List<OwnerReference> owners = service.getMetadata().getOwnerReferences();
    return owners != null && owners.stream().anyMatch(owner -> "Deployment".equals(owner.getKind())
        && key.name().equals(owner.getName())
        && (deployment == null || deployment.getMetadata().getUid().equals(owner.getUid())));
  }

  static Service desiredService(Deployment deployment) {
    OwnerReference owner = new OwnerReferenceBuilder()
        .withApiVersion("apps/v1")
        .withKind("Deployment")
        .withName(deployment.getMetadata().getName())
        .withUid(deployment.getMetadata().getUid())
        .withController(true)
        .withBlockOwnerDeletion(true)
        .build();
    List<ServicePort> ports = deployment.getSpec().getTemplate().getSpec().getContainers().stream()
        .flatMap(container -> container.getPorts() == null ? java.util.stream.Stream.empty()
            : container.getPorts().stream())
        .map(port -> new ServicePortBuilder()
            .withName(port.getName())
            .withProtocol(port.getProtocol() == null ? "TCP" : port.getProtocol())
            .withPort(port.getContainerPort())
            .withTargetPort(new IntOrString(port.getContainerPort()))
            .build())
        .toList();
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(deployment.getMetadata().getName())
          .withNamespace(deployment.getMetadata().getNamespace())
          .withLabels(NGINX_LABEL)
          .withOwnerReferences(owner)
        .endMetadata()
        .withNewSpec()
          .withSelector(deployment.getSpec().getSelector().getMatchLabels())
          .withPorts(ports)
        .endSpec()
        .build();
  }

  /** Compares only the fields this controller owns, so server-side defaults do not cause endless updates. */
  private static boolean samePorts(List<ServicePort> actual, List<ServicePort> desired) {
    if (actual == null || actual.size() != desired.size()) {
      return false;
    }
    for (int i = 0; i < desired.size(); i++) {
      ServicePort a = actual.get(i);
      ServicePort d = desired.get(i);
      if (!Objects.equals(a.getPort(), d.getPort()) || !Objects.equals(a.getTargetPort(), d.getTargetPort())
          || !Objects.equals(a.getName(), d.getName())) {
        return false;
      }
    }
    return true;
  }
}
