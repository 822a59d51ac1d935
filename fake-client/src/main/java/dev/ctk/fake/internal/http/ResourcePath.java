package dev.ctk.fake.internal.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The parts of a resource URL, parsed as kube-apiserver's request-info resolver does:
 * {@code /api/v1[/watch][/namespaces/{ns}]/{resource}[/{name}[/{subresource}]]} and the same under
 * {@code /apis/{group}/{version}}. {@code /api/v1/namespaces/{name}[/status|/finalize]} addresses the namespace
 * object itself. A {@code proxy} subresource may be followed by the path it proxies to (not kept).
 *
 * @param group API group ({@code ""} for {@code /api})
 * @param version API version
 * @param namespace namespace, or {@code null}
 * @param resource resource plural
 * @param name object name, or {@code null} for the collection
 * @param subresource subresource, or {@code null}
 * @param legacyWatch whether the deprecated {@code /watch/} prefix was used
 */
public record ResourcePath(String group, String version, String namespace, String resource, String name,
    String subresource, boolean legacyWatch) {

  private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

  /**
   * Parses a path.
   *
   * @param path decoded path
   * @return the parts, or empty when the path is not a resource path (discovery, unknown, too long)
   */
  public static Optional<ResourcePath> parse(String path) {
    List<String> parts = new ArrayList<>();
    for (String p : path.split("/")) {
      if (!p.isEmpty()) {
        parts.add(p);
      }
    }
    String group;
    String version;
    int rest;
    if (parts.size() >= 3 && parts.get(0).equals("api")) {
      group = "";
      version = parts.get(1);
      rest = 2;
    } else if (parts.size() >= 4 && parts.get(0).equals("apis")) {
      group = parts.get(1);
      version = parts.get(2);
      rest = 3;
    } else {
      return Optional.empty();
    }
    List<String> tail = new ArrayList<>(parts.subList(rest, parts.size()));
    boolean legacyWatch = false;
    if (!tail.isEmpty() && tail.get(0).equals("watch")) {
      legacyWatch = true;
      tail.remove(0);
    }
    String namespace = null;
    if (tail.size() > 1 && tail.get(0).equals("namespaces")) {
      namespace = tail.get(1);
      if (tail.size() > 2 && !NAMESPACE_SUBRESOURCES.contains(tail.get(2))) {
        tail = tail.subList(2, tail.size());
      } else {
        namespace = null;
      }
    }
    if (tail.isEmpty() || tail.size() > 3 && !tail.get(2).equals("proxy")) {
      return Optional.empty();
    }
    String resource = tail.get(0);
    String name = tail.size() > 1 ? tail.get(1) : null;
    String subresource = tail.size() > 2 ? tail.get(2) : null;
    return Optional.of(new ResourcePath(group, version, namespace, resource, name, subresource, legacyWatch));
  }
}
