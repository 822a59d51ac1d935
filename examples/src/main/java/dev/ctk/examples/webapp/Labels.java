package dev.ctk.examples.webapp;

import java.util.Map;

/** The labels of a web app's children: the selector's two, and who manages them. */
final class Labels {

  private Labels() {}

  /** The Deployment's selector and the Service's: the app's kind and its instance. */
  static Map<String, String> selector(WebApp webApp) {
    return Map.of("app.kubernetes.io/name", "webapp",
        "app.kubernetes.io/instance", webApp.getMetadata().getName());
  }

  /** Every child's labels: the selector's and {@code app.kubernetes.io/managed-by}. */
  static Map<String, String> of(WebApp webApp) {
    return Map.of("app.kubernetes.io/name", "webapp",
        "app.kubernetes.io/instance", webApp.getMetadata().getName(),
        "app.kubernetes.io/managed-by", "webapp-operator");
  }
}
