package dev.ctk.examples.clientjava;

import io.kubernetes.client.extended.controller.Controller;
import io.kubernetes.client.extended.controller.builder.ControllerBuilder;
import io.kubernetes.client.extended.controller.reconciler.Reconciler;
import io.kubernetes.client.extended.controller.reconciler.Request;
import io.kubernetes.client.extended.workqueue.DefaultRateLimitingQueue;
import io.kubernetes.client.extended.workqueue.RateLimitingQueue;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.SharedInformerFactory;
import io.kubernetes.client.informer.cache.Lister;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * A controller written with the official Kubernetes Java client only ({@code client-java-extended}:
 * {@code SharedInformerFactory}, {@code ControllerBuilder}, {@code Reconciler}): every ConfigMap
 * labelled {@code checksum.examples.ctk.dev/enabled=true} in a namespace gets an annotation {@code
 * checksum.examples.ctk.dev/sha256} holding the SHA-256 of its data, so that whoever mounts it can
 * tell when it changed.
 *
 * <pre>{@code
 * ApiClient apiClient = ClientBuilder.standard().build();   // read timeout 0, for the informers
 * SharedInformerFactory informers = new SharedInformerFactory(apiClient);
 * Controller controller = ConfigMapChecksumController.create(apiClient, informers, "default");
 * informers.startAllRegisteredInformers();
 * controller.run();   // blocks until controller.shutdown()
 * }</pre>
 *
 * @since 0.1.0
 */
public final class ConfigMapChecksumController {

  /** The controller's name (its worker threads are named after it). */
  public static final String NAME = "configmap-checksum";

  /** The label that opts a ConfigMap in; its value must be {@code true}. */
  public static final String ENABLED_LABEL = "checksum.examples.ctk.dev/enabled";

  /** The annotation that holds the checksum of the data. */
  public static final String CHECKSUM_ANNOTATION = "checksum.examples.ctk.dev/sha256";

  private ConfigMapChecksumController() {}

  /**
   * Builds the controller with client-java's default work queue; registers a ConfigMap informer in
   * {@code informers}.
   *
   * @param apiClient a client whose read timeout is 0
   * @param informers the application's informer factory; start its informers before running the
   *     controller
   * @param namespace the namespace to watch
   * @return the controller, not running
   */
  public static Controller create(ApiClient apiClient, SharedInformerFactory informers,
      String namespace) {
    return create(apiClient, informers, namespace, new DefaultRateLimitingQueue<>(),
        UnaryOperator.identity());
  }

  /**
   * Builds the controller with a given work queue and a decorator of its reconciler: the seam where
   * tests (or metrics) hook in, since client-java's controller keeps both in final fields.
   *
   * @param apiClient a client whose read timeout is 0
   * @param informers the application's informer factory
   * @param namespace the namespace to watch
   * @param workQueue the work queue
   * @param decorator wraps the reconciler, e.g. {@code probe::reconciler}
   * @return the controller, not running
   */
  public static Controller create(ApiClient apiClient, SharedInformerFactory informers,
      String namespace, RateLimitingQueue<Request> workQueue, UnaryOperator<Reconciler> decorator) {
    CoreV1Api core = new CoreV1Api(apiClient);
    SharedIndexInformer<V1ConfigMap> configMaps = informers.sharedIndexInformerFor(
        params -> core.listNamespacedConfigMap(namespace)
            .labelSelector(ENABLED_LABEL + "=true")
            .resourceVersion(params.resourceVersion)
            .timeoutSeconds(params.timeoutSeconds)
            .watch(params.watch)
            .buildCall(null),
        V1ConfigMap.class, V1ConfigMapList.class);
    Reconciler reconciler =
        new ConfigMapChecksumReconciler(core, new Lister<>(configMaps.getIndexer()));
    return ControllerBuilder.defaultBuilder(informers)
        .withWorkQueue(workQueue)   // before watch(..), which hands the queue to the event handler
        .watch(queue -> ControllerBuilder.controllerWatchBuilder(V1ConfigMap.class, queue).build())
        .withReconciler(decorator.apply(reconciler))
        .withReadyFunc(configMaps::hasSynced)
        .withWorkerCount(2)
        .withName(NAME)
        .build();
  }

  /**
   * The checksum of a ConfigMap's content: the SHA-256, in lower-case hex, of each {@code data} entry
   * as {@code key=value\n} and then each {@code binaryData} entry as {@code key=<base64>\n}, both in
   * key order.
   *
   * @param data the ConfigMap's data, or {@code null}
   * @param binaryData the ConfigMap's binary data, or {@code null}
   * @return 64 hex digits
   */
  public static String checksum(Map<String, String> data, Map<String, byte[]> binaryData) {
    StringBuilder content = new StringBuilder();
    new TreeMap<>(data == null ? Map.of() : data)
        .forEach((key, value) -> content.append(key).append('=').append(value).append('\n'));
    new TreeMap<>(binaryData == null ? Map.<String, byte[]>of() : binaryData)
        .forEach((key, value) -> content.append(key).append('=')
            .append(java.util.Base64.getEncoder().encodeToString(value)).append('\n'));
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(content.toString().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256, which every Java platform must "
          + "provide", e);
    }
  }
}
