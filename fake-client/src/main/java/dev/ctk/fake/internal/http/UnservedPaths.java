package dev.ctk.fake.internal.http;

import dev.ctk.fake.internal.registry.BuiltinKinds;
import dev.ctk.fake.internal.registry.ResourceType;
import dev.ctk.fake.internal.status.ApiError;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What kube-apiserver answers a request for something it does not serve, which depends on who would have served it:
 * kube-apiserver's own API groups (the core group and every built-in group) answer a {@code Status} 404
 * {@code the server could not find the requested resource}; a path under {@code /apis/<group>} of any other group
 * (an unknown group, or a version or resource of a CRD's group that no CRD serves) and a path outside {@code /api}
 * and {@code /apis} fall through the apiextensions server to the HTTP mux, which answers the plain text
 * {@code 404 page not found}.
 *
 * <p>"Built-in" means a group of the fake's {@link BuiltinKinds}; kube has more built-in groups than the fake
 * serves, and for those kube answers discovery where the fake answers the plain-text 404.
 */
final class UnservedPaths {

  private static final Set<String> BUILTIN_GROUPS = BuiltinKinds.all().stream().map(ResourceType::group)
      .collect(Collectors.toUnmodifiableSet());

  private UnservedPaths() {}

  /** The 404 for a resource path under {@code /api/<version>} ({@code group} {@code ""}) or {@code /apis/<group>}. */
  static ApiError inGroup(String group) {
    return group.isEmpty() || BUILTIN_GROUPS.contains(group) ? ApiError.unknownResource() : ApiError.pageNotFound();
  }

  /** The 404 for any path nothing serves. */
  static ApiError forPath(String path) {
    String[] parts = path.replaceFirst("^/+", "").split("/");
    if (parts[0].equals("api") || parts[0].equals("openapi")) {
      return ApiError.unknownResource();
    }
    if (parts[0].equals("apis") && parts.length > 1) {
      return inGroup(parts[1]);
    }
    return ApiError.pageNotFound();
  }
}
