package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

/**
 * The directory of a namespace's web apps: one ConfigMap, {@code webapp-directory}, with an entry
 * per web app (its name to its URL). No single web app owns it, so garbage collection cannot remove
 * an entry: the operator's finalizer does, in {@link WebAppReconciler#cleanup}.
 *
 * <p>Each web app writes its entry by server-side apply under a field manager of its own ({@code
 * webapp-<name>}), so entries of different web apps never conflict; applying nothing under that
 * manager removes the entry it owned.
 *
 * @since 0.1.0
 */
public final class WebAppDirectory {

  /** The ConfigMap's name, in each namespace that has web apps. */
  public static final String NAME = "webapp-directory";

  private WebAppDirectory() {}

  /**
   * Writes (or rewrites) the entry of a web app.
   *
   * @param client the client
   * @param webApp the web app
   * @param url its URL
   */
  static void register(KubernetesClient client, WebApp webApp, String url) {
    apply(client, webApp, new ConfigMapBuilder(emptyDirectory(webApp))
        .addToData(webApp.getMetadata().getName(), url).build());
  }

  /**
   * Removes the entry of a web app, if the directory holds one.
   *
   * @param client the client
   * @param webApp the web app
   */
  static void deregister(KubernetesClient client, WebApp webApp) {
    ConfigMap directory = client.configMaps().inNamespace(webApp.getMetadata().getNamespace())
        .withName(NAME).get();
    if (directory != null && directory.getData() != null
        && directory.getData().containsKey(webApp.getMetadata().getName())) {
      apply(client, webApp, emptyDirectory(webApp));
    }
  }

  private static void apply(KubernetesClient client, WebApp webApp, ConfigMap configMap) {
    client.configMaps().resource(configMap)
        .fieldManager("webapp-" + webApp.getMetadata().getName())
        .forceConflicts()
        .serverSideApply();
  }

  private static ConfigMap emptyDirectory(WebApp webApp) {
    return new ConfigMapBuilder()
        .withNewMetadata()
          .withName(NAME)
          .withNamespace(webApp.getMetadata().getNamespace())
          .addToLabels("app.kubernetes.io/managed-by", "webapp-operator")
        .endMetadata()
        .build();
  }
}
