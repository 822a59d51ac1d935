package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.ResourceRegistry;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import dev.ctk.fake.internal.version.KubeMinor;

/**
 * A resource path matched against the registry.
 *
 * @param type the served resource
 * @param namespace namespace (null for cluster-scoped resources or all namespaces)
 * @param name object name or null
 * @param subresource {@code "status"}, {@code "scale"} or null
 * @param path the parsed path
 */
record ResolvedResource(ResourceType type, String namespace, String name, String subresource, ResourcePath path) {

  /**
   * Resolves a path.
   *
   * @throws ApiError 404 with kube's "the server could not find the requested resource" for anything not served,
   *     or its plain-text {@code 404 page not found} outside its own API groups ({@link UnservedPaths})
   */
  static ResolvedResource resolve(ResourcePath path, ResourceRegistry registry, KubeMinor minor) {
    ResourceType type = registry.byPath(path.group(), path.version(), path.resource())
        .orElseThrow(() -> UnservedPaths.inGroup(path.group()));
    if (!type.namespaced() && path.namespace() != null) {
      throw ApiError.unknownResource();
    }
    if (type.namespaced() && path.namespace() == null && path.name() != null) {
      throw ApiError.unknownResource();
    }
    if (path.subresource() != null && !type.hasSubresource(path.subresource())
        && !NamedSubresources.serves(type, path.subresource(), minor)) {
      throw ApiError.unknownResource();
    }
    return new ResolvedResource(type, path.namespace(), path.name(), path.subresource(), path);
  }
}
