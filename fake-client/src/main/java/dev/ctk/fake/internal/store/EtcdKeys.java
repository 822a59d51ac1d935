package dev.ctk.fake.internal.store;

import dev.ctk.fake.internal.registry.ResourceType;
import java.util.Map;

/**
 * The etcd key kube-apiserver keeps an object under, which a few of its error messages print (a failed uid
 * precondition: {@code StorageError: invalid object, Code: 4, Key: /registry/configmaps/ns/web, ...}):
 * {@code /registry/<prefix>/<namespace>/<name>} ({@code /registry/<prefix>/<name>} for cluster-scoped kinds). The
 * prefix is the resource, but for kube's special prefixes ({@code services/specs}, {@code minions}, ...), and
 * {@code <group>/<resource>} for what the apiextensions server stores (CustomResourceDefinitions and custom
 * resources). The fake has no etcd: this is only the text.
 */
final class EtcdKeys {

  /** kube-apiserver's {@code SpecialDefaultResourcePrefixes}, for the kinds the fake serves. */
  private static final Map<String, String> SPECIAL = Map.of(
      "/services", "services/specs",
      "/endpoints", "services/endpoints",
      "/nodes", "minions",
      "/replicationcontrollers", "controllers",
      "networking.k8s.io/ingresses", "ingress",
      "events.k8s.io/events", "events");

  private EtcdKeys() {}

  /** The key of an object of {@code type} ({@code namespace} ignored for cluster-scoped kinds). */
  static String of(ResourceType type, String namespace, String name) {
    String prefix = type.custom() || type.group().equals("apiextensions.k8s.io")
        ? type.group() + "/" + type.plural()
        : SPECIAL.getOrDefault(type.group() + "/" + type.plural(), type.plural());
    return "/registry/" + prefix + "/" + (type.namespaced() ? namespace + "/" : "") + name;
  }
}
