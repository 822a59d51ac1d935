package dev.ctk.fake.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ResourcePathTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(nullValues = "-", value = {
      "/api/v1/pods,                                    '', v1, -, pods, -, -, false",
      "/api/v1/namespaces/default/pods,                 '', v1, default, pods, -, -, false",
      "/api/v1/namespaces/default/pods/web,             '', v1, default, pods, web, -, false",
      "/api/v1/namespaces/default/pods/web/status,      '', v1, default, pods, web, status, false",
      "/api/v1/namespaces,                              '', v1, -, namespaces, -, -, false",
      "/api/v1/namespaces/team-a,                       '', v1, -, namespaces, team-a, -, false",
      "/api/v1/namespaces/team-a/status,                '', v1, -, namespaces, team-a, status, false",
      "/api/v1/namespaces/team-a/finalize,              '', v1, -, namespaces, team-a, finalize, false",
      "/apis/apps/v1/namespaces/ns/deployments/d/scale, apps, v1, ns, deployments, d, scale, false",
      "/apis/apps/v1/deployments,                       apps, v1, -, deployments, -, -, false",
      "/api/v1/watch/namespaces/ns/configmaps/c,        '', v1, ns, configmaps, c, -, true",
      "/apis/rbac.authorization.k8s.io/v1/clusterroles/r/, rbac.authorization.k8s.io, v1, -, clusterroles, r, -, false"
  })
  void parses(String path, String group, String version, String namespace, String resource, String name,
      String subresource, boolean watch) {
    assertThat(ResourcePath.parse(path)).contains(new ResourcePath(group, version, namespace, resource, name,
        subresource, watch));
  }

  @ParameterizedTest
  @ValueSource(strings = {"/", "/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1", "/version",
      "/api/v1/namespaces/ns/pods/p/log/extra", "/openapi/v2"})
  void nonResourcePaths(String path) {
    assertThat(ResourcePath.parse(path)).isEqualTo(Optional.empty());
  }
}
