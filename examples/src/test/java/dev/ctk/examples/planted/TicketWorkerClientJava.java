package dev.ctk.examples.planted;

import dev.ctk.clientjava.ClientJavaProbe;
import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.controller.reconciler.Result;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1OwnerReference;
import java.net.HttpURLConnection;
import java.util.Map;

/**
 * {@link TicketWorkerController}'s bug in a Kubernetes Java client controller ({@code DefaultController}): gives
 * every ticket one worker ConfigMap and records the worker's name on the ticket, two writes per reconcile.
 *
 * <p><b>Planted bug</b>: the worker gets a generated name and "does the ticket have a worker?" is read from the
 * ticket's annotation, so a crash between the two writes leaves an unrecorded worker and the restarted controller
 * creates a second one. <b>Correct:</b> the worker's name is derived from the ticket's; a repeated create answers 409,
 * which means done.
 */
final class TicketWorkerClientJava {

  static final String NAME = "ticket-worker-client-java";

  private final CoreV1Api core;
  private final Lister<V1ConfigMap> tickets;
  private final Variant variant;

  private TicketWorkerClientJava(CoreV1Api core, Lister<V1ConfigMap> tickets, Variant variant) {
    this.core = core;
    this.tickets = tickets;
    this.variant = variant;
  }

  /** Builds the controller on the given client, with the probe's work queue and reconciler wrapper; not started. */
  static Controller create(ApiClient apiClient, ClientJavaProbe probe, Variant variant) {
    CoreV1Api core = new CoreV1Api(apiClient);
    SharedInformerFactory informers = new SharedInformerFactory(apiClient);
    SharedIndexInformer<V1ConfigMap> configMaps = informers.sharedIndexInformerFor(
        params -> core.listConfigMapForAllNamespaces()
            .labelSelector(TicketWorkerController.TICKET_LABEL + "=true")
            .resourceVersion(params.resourceVersion)
            .timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch)
            .buildCall(null),
        V1ConfigMap.class, V1ConfigMapList.class);
    probe.watch(informers);
    TicketWorkerClientJava reconciler = new TicketWorkerClientJava(core, new Lister<>(configMaps.getIndexer()),
        variant);
    return ControllerBuilder.defaultBuilder(informers)
        .withWorkQueue(probe.rateLimitingQueue())
        .watch(queue -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, queue).build())
        .withReconciler(probe.reconciler(reconciler::reconcile))
        .withReadyFunc(configMaps::hasSynced)
        .withName(NAME)
        .build();
  }

  private Result reconcile(Request request) {
    V1ConfigMap ticket = tickets.namespace(request.getNamespace()).get(request.getName());
    if (ticket == null || (ticket.getMetadata().getAnnotations() != null
        && ticket.getMetadata().getAnnotations().containsKey(TicketWorkerController.WORKER_ANNOTATION))) {
      return new Result(false);
    }
    try {
      String worker = variant == Variant.PLANTED_BUG ? createWithGeneratedName(ticket) : createWithFixedName(ticket);
      V1ConfigMap current = core.readNamespacedConfigMap(request.getName(), request.getNamespace()).execute();
      current.getMetadata().putAnnotationsItem(TicketWorkerController.WORKER_ANNOTATION, worker);
      core.replaceNamespacedConfigMap(request.getName(), request.getNamespace(), current).execute();
      return new Result(false);
    } catch (ApiException e) {
      return new Result(true);
    }
  }

  private String createWithGeneratedName(V1ConfigMap ticket) throws ApiException {
    V1ConfigMap worker = worker(ticket);
    worker.getMetadata().setGenerateName(ticket.getMetadata().getName() + "-worker-");
    return core.createNamespacedConfigMap(ticket.getMetadata().getNamespace(), worker).execute().getMetadata()
        .getName();
  }

  private String createWithFixedName(V1ConfigMap ticket) throws ApiException {
    String name = ticket.getMetadata().getName() + "-worker";
    V1ConfigMap worker = worker(ticket);
    worker.getMetadata().setName(name);
    try {
      core.createNamespacedConfigMap(ticket.getMetadata().getNamespace(), worker).execute();
    } catch (ApiException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    return name;
  }

  private static V1ConfigMap worker(V1ConfigMap ticket) {
    return new V1ConfigMap().metadata(new V1ObjectMeta().namespace(ticket.getMetadata().getNamespace())
            .addOwnerReferencesItem(new V1OwnerReference().apiVersion("v1").kind("ConfigMap")
                .name(ticket.getMetadata().getName()).uid(ticket.getMetadata().getUid()).controller(true)))
        .data(Map.of("ticket", ticket.getMetadata().getName()));
  }
}
