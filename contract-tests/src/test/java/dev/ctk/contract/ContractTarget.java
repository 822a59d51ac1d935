package dev.ctk.contract;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The server a scenario runs against, with what a test body needs: a fabric8 client with admin rights, plain HTTP
 * ({@link #api()}) for what fabric8 hides, a fresh namespace made for this scenario, and the server's name and
 * version. Paths are built with {@link #core(String)} and {@link #apis(String, String)}.
 *
 * <pre>{@code
 * Response r = t.api().post(t.apis("apps/v1", "deployments"), deploymentJson);
 * Deployment d = t.client().apps().deployments().inNamespace(t.namespace()).withName("web").get();
 * }</pre>
 */
public final class ContractTarget implements AutoCloseable {

  private static final Duration ESTABLISHED_TIMEOUT = Duration.ofSeconds(30);

  private final String name;
  private final String version;
  private final KubernetesClient client;
  private final RawApi api;
  private final String namespace;
  private final List<String> crds = new ArrayList<>();

  private ContractTarget(String name, String version, KubernetesClient client, String namespace) {
    this.name = name;
    this.version = version;
    this.client = client;
    this.api = new RawApi(client);
    this.namespace = namespace;
  }

  /**
   * Makes the scenario's namespace on a server and wraps it.
   *
   * @param name what the server is, e.g. {@code fake}
   * @param client an admin client of the server; closed by {@link #close()}
   * @param namespace the fresh namespace's name
   * @return the target
   */
  static ContractTarget open(String name, KubernetesClient client, String namespace) {
    ContractTarget target = new ContractTarget(name, client.getKubernetesVersion().getGitVersion(), client,
        namespace);
    target.create("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\""
        + namespace + "\"}}");
    return target;
  }

  /**
   * What the server is.
   *
   * @return e.g. {@code fake} or {@code kube-apiserver v1.20.2 (local binaries)}
   */
  public String name() {
    return name;
  }

  /**
   * The server's {@code /version} gitVersion.
   *
   * @return e.g. {@code v1.20.2}
   */
  public String version() {
    return version;
  }

  /**
   * An admin fabric8 client of the server.
   *
   * @return the client
   */
  public KubernetesClient client() {
    return client;
  }

  /**
   * Plain HTTP to the server.
   *
   * @return the raw API
   */
  public RawApi api() {
    return api;
  }

  /**
   * The namespace made for this scenario (observations show it as {@code <ns>}).
   *
   * @return the name
   */
  public String namespace() {
    return namespace;
  }

  /**
   * A path in the core group, in the scenario's namespace.
   *
   * @param rest e.g. {@code configmaps/web?dryRun=All}
   * @return e.g. {@code /api/v1/namespaces/<ns>/configmaps/web?dryRun=All}
   */
  public String core(String rest) {
    return "/api/v1/namespaces/" + namespace + "/" + rest;
  }

  /**
   * A path in a named group, in the scenario's namespace.
   *
   * @param groupVersion e.g. {@code apps/v1}
   * @param rest e.g. {@code deployments/web/scale}
   * @return the path
   */
  public String apis(String groupVersion, String rest) {
    return "/apis/" + groupVersion + "/namespaces/" + namespace + "/" + rest;
  }

  /**
   * An API group of this scenario's own, so that CRDs of scenarios sharing one server never collide.
   *
   * @return e.g. {@code ctk-contract-x7k2p.example.com} (observations show {@code <ns>.example.com})
   */
  public String crdGroup() {
    return namespace + ".example.com";
  }

  /**
   * A setup step: POSTs and requires 201 Created.
   *
   * @param path the collection path
   * @param json the object
   * @return the answer
   * @throws IllegalStateException when the server answers anything else
   */
  public Response create(String path, String json) {
    Response r = api.post(path, json);
    if (r.code() != 201) {
      throw new IllegalStateException("Scenario setup failed on " + name + ": POST " + path + " answered "
          + r.code() + " instead of 201 Created: " + r.text().strip() + "\nbody sent: " + json);
    }
    return r;
  }

  /**
   * A setup step: creates a CustomResourceDefinition, waits (at most 30 s each) until it is {@code Established} and
   * until discovery lists its group and its first version's resources (kube-apiserver updates discovery
   * asynchronously), and deletes it when the scenario ends.
   *
   * @param json the CRD
   * @return the CRD as read once Established
   */
  public Response installCrd(String json) {
    Response created = create("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", json);
    String crdName = Objects.requireNonNull(created.at("/metadata/name"));
    crds.add(crdName);
    String path = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crdName;
    Response[] last = new Response[1];
    await("CRD " + crdName + " to be Established on " + name)
        .atMost(ESTABLISHED_TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> {
          last[0] = api.get(path);
          for (var condition : last[0].body().at("/status/conditions")) {
            if ("Established".equals(condition.path("type").asText())
                && "True".equals(condition.path("status").asText())) {
              return true;
            }
          }
          return false;
        });
    String group = created.at("/spec/group");
    String version = created.at("/spec/versions/0/name");
    String plural = created.at("/spec/names/plural");
    await("discovery of " + group + "/" + version + " to list " + plural + " on " + name)
        .atMost(ESTABLISHED_TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> api.get("/apis").text().contains("\"" + group + "/" + version + "\"")
            && api.get("/apis/" + group + "/" + version).text().contains("\"" + plural + "\""));
    return last[0];
  }

  @Override
  public void close() {
    try {
      for (String crd : crds) {
        api.delete("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/" + crd);
      }
      api.delete("/api/v1/namespaces/" + namespace);
    } finally {
      client.close();
    }
  }

  @Override
  public String toString() {
    return name + " " + version + ", namespace " + namespace;
  }
}
