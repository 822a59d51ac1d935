package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.processing.dependent.kubernetes.CRUDKubernetesDependentResource;

/**
 * The page a web app serves: a ConfigMap {@code <name>-content} holding {@code index.html}. A JOSDK
 * dependent resource: created, updated by server-side apply, owned by the web app (garbage
 * collected with it).
 *
 * @since 0.1.0
 */
public class WebAppConfigMap extends CRUDKubernetesDependentResource<ConfigMap, WebApp> {

  /** The key of the page in the ConfigMap. */
  public static final String PAGE = "index.html";

  /** Created by JOSDK for {@link WebAppReconciler}'s workflow. */
  public WebAppConfigMap() {
    super(ConfigMap.class);
  }

  /**
   * The name of a web app's ConfigMap.
   *
   * @param webApp the web app
   * @return {@code <name>-content}
   */
  public static String nameOf(WebApp webApp) {
    return webApp.getMetadata().getName() + "-content";
  }

  @Override
  protected ConfigMap desired(WebApp webApp, Context<WebApp> context) {
    String greeting = webApp.getSpec().getGreeting() == null ? "" : webApp.getSpec().getGreeting();
    return new ConfigMapBuilder()
        .withNewMetadata()
          .withName(nameOf(webApp))
          .withNamespace(webApp.getMetadata().getNamespace())
          .withLabels(Labels.of(webApp))
        .endMetadata()
        .addToData(PAGE, "<h1>" + greeting + "</h1>\n")
        .build();
  }
}
