package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.javaoperatorsdk.operator.api.reconciler.Cleaner;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.DeleteControl;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.api.reconciler.Workflow;
import io.javaoperatorsdk.operator.api.reconciler.dependent.Dependent;

/**
 * Reconciles {@link WebApp}s with Java Operator SDK's defaults (server-side apply for the children
 * and the status, a finalizer because it is a {@link Cleaner}, retries with backoff).
 *
 * <p>JOSDK's managed workflow applies the children first: {@link WebAppConfigMap}, then {@link
 * WebAppDeployment} (it mounts the ConfigMap), and {@link WebAppService}, each owned by the web app.
 * Then {@link #reconcile} lists the app in the namespace's {@link WebAppDirectory} and writes the
 * status: the generation it reconciled, the Service's URL, the Deployment's ready pods. When a web
 * app is deleted, {@link #cleanup} removes its directory entry, then JOSDK removes the finalizer; the
 * children go with the garbage collector (owner references).
 *
 * <pre>{@code
 * Operator operator = new Operator();
 * operator.register(new WebAppReconciler());
 * operator.start();
 * }</pre>
 *
 * @since 0.1.0
 */
@Workflow(dependents = {
    @Dependent(name = "content", type = WebAppConfigMap.class),
    @Dependent(name = "deployment", type = WebAppDeployment.class, dependsOn = "content"),
    @Dependent(name = "service", type = WebAppService.class)
})
@ControllerConfiguration(name = WebAppReconciler.NAME)
public class WebAppReconciler implements Reconciler<WebApp>, Cleaner<WebApp> {

  /** The controller's name, as JOSDK registers it. */
  public static final String NAME = "webapp";

  @Override
  public UpdateControl<WebApp> reconcile(WebApp webApp, Context<WebApp> context) {
    String url = context.getSecondaryResource(Service.class)
        .map(service -> service.getSpec().getClusterIP())
        .filter(ip -> !ip.isEmpty() && !"None".equals(ip))
        .map(ip -> "http://" + ip + ":80")
        .orElse(null);
    Integer ready = context.getSecondaryResource(Deployment.class)
        .map(deployment -> deployment.getStatus() == null ? null
            : deployment.getStatus().getReadyReplicas())
        .orElse(null);
    if (url != null) {
      WebAppDirectory.register(context.getClient(), webApp, url);
    }
    return UpdateControl.patchStatus(statusOf(webApp, url, ready == null ? 0 : ready));
  }

  @Override
  public DeleteControl cleanup(WebApp webApp, Context<WebApp> context) {
    WebAppDirectory.deregister(context.getClient(), webApp);
    return DeleteControl.defaultDelete();
  }

  /** A web app with only its name and the new status: what server-side apply of a status sends. */
  private static WebApp statusOf(WebApp webApp, String url, int ready) {
    WebApp patch = new WebApp();
    patch.getMetadata().setName(webApp.getMetadata().getName());
    patch.getMetadata().setNamespace(webApp.getMetadata().getNamespace());
    WebAppStatus status = new WebAppStatus();
    status.setObservedGeneration(webApp.getMetadata().getGeneration());
    status.setUrl(url);
    status.setReadyReplicas(ready);
    patch.setStatus(status);
    return patch;
  }
}
