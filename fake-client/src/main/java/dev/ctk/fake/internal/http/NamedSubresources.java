package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.version.KubeMinor;
import java.util.List;

/**
 * The subresources kube-apiserver 1.32 serves beyond {@code status} and {@code scale} for the built-in kinds the fake
 * serves, as its discovery lists them: the Pod's {@code attach}, {@code binding}, {@code ephemeralcontainers},
 * {@code eviction}, {@code exec}, {@code log}, {@code portforward} and {@code proxy}, {@code nodes/proxy},
 * {@code services/proxy}, {@code namespaces/finalize} and {@code serviceaccounts/token}; from 1.33 also
 * {@code pods/resize} (in-place resize). {@link SubresourceHandler} serves them.
 */
final class NamedSubresources {

  /**
   * One subresource.
   *
   * @param kindKey {@code group/Kind} of the kind it belongs to ({@code /Pod} for core)
   * @param name the subresource, e.g. {@code log}
   * @param kind the kind its discovery entry names, e.g. {@code PodExecOptions}
   * @param group the group of that kind when it is another group's ({@code policy} for {@code Eviction}), else
   *     {@code ""}
   * @param version that group's version, or {@code ""}
   * @param verbs the verbs, in kube's (alphabetical) order
   */
  record Entry(String kindKey, String name, String kind, String group, String version, List<String> verbs) {
  }

  private static final List<String> CONNECT = List.of("create", "get");
  private static final List<String> PROXY = List.of("create", "delete", "get", "patch", "update");

  private static final List<Entry> TABLE = List.of(
      new Entry("/Namespace", "finalize", "Namespace", "", "", List.of("update")),
      new Entry("/Node", "proxy", "NodeProxyOptions", "", "", PROXY),
      new Entry("/Pod", "attach", "PodAttachOptions", "", "", CONNECT),
      new Entry("/Pod", "binding", "Binding", "", "", List.of("create")),
      new Entry("/Pod", "ephemeralcontainers", "Pod", "", "", List.of("get", "patch", "update")),
      new Entry("/Pod", "eviction", "Eviction", "policy", "v1", List.of("create")),
      new Entry("/Pod", "exec", "PodExecOptions", "", "", CONNECT),
      new Entry("/Pod", "log", "Pod", "", "", List.of("get")),
      new Entry("/Pod", "portforward", "PodPortForwardOptions", "", "", CONNECT),
      new Entry("/Pod", "proxy", "PodProxyOptions", "", "", PROXY),
      new Entry("/Pod", "resize", "Pod", "", "", List.of("get", "patch", "update")),
      new Entry("/Service", "proxy", "ServiceProxyOptions", "", "", PROXY),
      new Entry("/ServiceAccount", "token", "TokenRequest", "authentication.k8s.io", "v1", List.of("create")));

  private NamedSubresources() {}

  /** The subresources of a kind that a server of that minor serves, in name order (none for custom resources). */
  static List<Entry> of(ResourceType type, KubeMinor minor) {
    if (type.custom()) {
      return List.of();
    }
    String key = type.group() + "/" + type.kind();
    return TABLE.stream().filter(e -> e.kindKey().equals(key))
        .filter(e -> !e.name().equals("resize") || minor.servesPodResize()).toList();
  }

  /** Whether a kind serves this subresource (beyond status and scale) in that minor. */
  static boolean serves(ResourceType type, String subresource, KubeMinor minor) {
    return of(type, minor).stream().anyMatch(e -> e.name().equals(subresource));
  }
}
