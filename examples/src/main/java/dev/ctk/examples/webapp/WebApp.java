package dev.ctk.examples.webapp;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A web application: an image served by a Deployment behind a Service, with a greeting page from a
 * ConfigMap. The CRD ({@code webapps.examples.ctk.dev}) is generated from these classes by fabric8's
 * crd-generator-maven-plugin into {@code META-INF/fabric8/webapps.examples.ctk.dev-v1.yml}.
 *
 * <pre>{@code
 * apiVersion: examples.ctk.dev/v1
 * kind: WebApp
 * metadata:
 *   name: web
 * spec:
 *   image: nginx:1.27
 *   replicas: 2
 *   greeting: Hello
 * }</pre>
 *
 * @since 0.1.0
 */
@Group("examples.ctk.dev")
@Version("v1")
@ShortNames("wa")
public class WebApp extends CustomResource<WebAppSpec, WebAppStatus> implements Namespaced {

  /**
   * A web app named {@code name}, without a namespace (created in the client's namespace).
   *
   * @param name its name
   * @param image the container image
   * @param replicas how many pods
   * @param greeting the page's text
   * @return the web app
   */
  public static WebApp of(String name, String image, int replicas, String greeting) {
    WebApp webApp = new WebApp();
    webApp.getMetadata().setName(name);
    WebAppSpec spec = new WebAppSpec();
    spec.setImage(image);
    spec.setReplicas(replicas);
    spec.setGreeting(greeting);
    webApp.setSpec(spec);
    return webApp;
  }
}
