package dev.ctk.examples.planted;

import dev.ctk.controller.Controller;
import dev.ctk.controller.EventHandlers;
import dev.ctk.controller.ObjectKey;
import dev.ctk.controller.Reconciler;
import dev.ctk.controller.Result;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.HttpURLConnection;
import java.util.Map;

/**
 * Gives every ticket (a ConfigMap labelled {@code examples.ctk.dev/ticket=true}) one worker ConfigMap, owned by the
 * ticket, and records the worker's name on the ticket ({@value #WORKER_ANNOTATION}): two writes per reconcile.
 *
 * <p><b>Planted bug</b> (a create that is not idempotent after a crash): the worker gets a generated name, and
 * "does the ticket have a worker?" is read from the ticket's annotation. A crash between the create and the
 * annotation leaves a worker that nobody records; the restarted controller creates a second one. <b>Correct:</b> the
 * worker's name is derived from the ticket's, so a repeated create answers 409 AlreadyExists, which means done.
 */
final class TicketWorkerController implements Reconciler {

  static final String TICKET_LABEL = "examples.ctk.dev/ticket";
  static final String WORKER_ANNOTATION = "examples.ctk.dev/worker";

  private final KubernetesClient client;
  private final Variant variant;
  private final SharedIndexInformer<ConfigMap> configMaps;

  private TicketWorkerController(KubernetesClient client, Variant variant) {
    this.client = client;
    this.variant = variant;
    this.configMaps = client.configMaps().inAnyNamespace().withLabel(TICKET_LABEL, "true").runnableInformer(0);
  }

  static Controller create(KubernetesClient client, Variant variant) {
    TicketWorkerController reconciler = new TicketWorkerController(client, variant);
    return Controller.builder("ticket-worker")
        .watch(reconciler.configMaps, EventHandlers.enqueueObject())
        .withReconciler(reconciler)
        .build();
  }

  @Override
  public Result reconcile(ObjectKey key) {
    ConfigMap ticket = configMaps.getIndexer().getByKey(key.toString());
    if (ticket == null || annotation(ticket) != null) {
      return Result.done();
    }
    String worker = variant == Variant.PLANTED_BUG ? createWithGeneratedName(ticket) : createWithFixedName(ticket);
    client.configMaps().inNamespace(key.namespace()).withName(key.name()).edit(t -> new ConfigMapBuilder(t)
        .editMetadata().addToAnnotations(WORKER_ANNOTATION, worker).endMetadata().build());
    return Result.done();
  }

  private String createWithGeneratedName(ConfigMap ticket) {
    return client.resource(worker(ticket).editMetadata().withGenerateName(ticket.getMetadata().getName() + "-worker-")
        .endMetadata().build()).create().getMetadata().getName();
  }

  private String createWithFixedName(ConfigMap ticket) {
    String name = ticket.getMetadata().getName() + "-worker";
    try {
      client.resource(worker(ticket).editMetadata().withName(name).endMetadata().build()).create();
    } catch (KubernetesClientException e) {
      if (e.getCode() != HttpURLConnection.HTTP_CONFLICT) {
        throw e;
      }
    }
    return name;
  }

  private static ConfigMapBuilder worker(ConfigMap ticket) {
    return new ConfigMapBuilder()
        .withNewMetadata()
          .withNamespace(ticket.getMetadata().getNamespace())
          .addNewOwnerReference()
            .withApiVersion("v1").withKind("ConfigMap").withName(ticket.getMetadata().getName())
            .withUid(ticket.getMetadata().getUid()).withController(true)
          .endOwnerReference()
        .endMetadata()
        .withData(Map.of("ticket", ticket.getMetadata().getName()));
  }

  private static String annotation(ConfigMap ticket) {
    Map<String, String> annotations = ticket.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(WORKER_ANNOTATION);
  }
}
