package dev.ctk.clientjava;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.ctk.harness.ControllerHarness;
import dev.ctk.junit.ControllerTest;
import io.kubernetes.client.Discovery.APIResource;
import io.kubernetes.client.Discovery;
import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.openapi.models.V1APIGroup;
import io.kubernetes.client.openapi.models.V1APIResource;
import io.kubernetes.client.openapi.models.V1APIResourceList;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1GroupVersionForDiscovery;
import io.kubernetes.client.util.ModelMapper;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The official Java client's discovery against ctk's fake API server: {@code Discovery} parses every
 * document ({@code /api}, {@code /apis}, each group version's resource list; client-java's models
 * reject unknown fields and missing required ones) and {@code ModelMapper} maps what it found, core
 * v1, apps/v1 and a CRD installed by the test included.
 */
@ControllerTest(crds = "classpath:crds/widgets.clientjava.ctk.dev.yaml")
class DiscoveryTest {

  @Test
  void versionDiscovery_lists_core_v1(ControllerHarness harness) throws Exception {
    // GIVEN
    Discovery discovery = new Discovery(ApiClients.forHarness(harness));
    // WHEN / THEN
    assertThat(discovery.versionDiscovery("/api").getVersions()).containsExactly("v1");
    assertThat(discovery.legacyCoreApi().getVersions()).containsExactly("v1");
  }

  @Test
  void groupDiscovery_lists_apps_and_the_installed_crd_group(ControllerHarness harness)
      throws Exception {
    // GIVEN
    Discovery discovery = new Discovery(ApiClients.forHarness(harness));
    // WHEN
    var groups = discovery.groupDiscovery("/apis").getGroups();
    // THEN
    assertThat(groups).extracting(V1APIGroup::getName)
        .contains("apps", "apiextensions.k8s.io", "clientjava.ctk.dev");
    V1APIGroup widgets = groups.stream().filter(g -> g.getName().equals("clientjava.ctk.dev"))
        .findFirst().orElseThrow();
    assertThat(widgets.getVersions()).extracting(V1GroupVersionForDiscovery::getGroupVersion)
        .containsExactly("clientjava.ctk.dev/v1");
    assertThat(widgets.getPreferredVersion().getVersion()).isEqualTo("v1");
  }

  @Test
  void resourceDiscovery_describes_the_crd_and_its_status_subresource(ControllerHarness harness)
      throws Exception {
    // GIVEN
    Discovery discovery = new Discovery(ApiClients.forHarness(harness));
    // WHEN
    V1APIResourceList list = discovery.resourceDiscovery("/apis/clientjava.ctk.dev/v1");
    // THEN
    assertThat(list.getGroupVersion()).isEqualTo("clientjava.ctk.dev/v1");
    assertThat(list.getResources()).extracting(V1APIResource::getName, V1APIResource::getKind,
            V1APIResource::getNamespaced, V1APIResource::getSingularName)
        .containsExactlyInAnyOrder(
            tuple("widgets", "Widget", true, "widget"),
            tuple("widgets/status", "Widget", true, ""));
    assertThat(list.getResources().get(0).getVerbs()).contains("get", "list", "watch", "create");
  }

  @Test
  void findAll_finds_core_apps_and_the_crd(ControllerHarness harness) throws Exception {
    // GIVEN
    Discovery discovery = new Discovery(ApiClients.forHarness(harness));
    // WHEN
    Set<APIResource> resources = discovery.findAll();
    // THEN
    assertThat(resources).anySatisfy(r -> {
      assertThat(r.getGroup()).isEmpty();
      assertThat(r.getKind()).isEqualTo("ConfigMap");
      assertThat(r.getResourcePlural()).isEqualTo("configmaps");
      assertThat(r.getNamespaced()).isTrue();
    });
    assertThat(resources).anySatisfy(r -> {
      assertThat(r.getGroup()).isEqualTo("apps");
      assertThat(r.getKind()).isEqualTo("Deployment");
      assertThat(r.getPreferredVersion()).isEqualTo("v1");
      assertThat(r.getSubResources()).contains("status", "scale");
    });
    assertThat(resources).anySatisfy(r -> {
      assertThat(r.getGroup()).isEqualTo("clientjava.ctk.dev");
      assertThat(r.getKind()).isEqualTo("Widget");
      assertThat(r.getVersions()).containsExactly("v1");
      assertThat(r.getSubResources()).containsExactly("status");
    });
    assertThat(resources).anySatisfy(r -> {
      assertThat(r.getKind()).isEqualTo("Namespace");
      assertThat(r.getNamespaced()).isFalse();
    });
  }

  @Test
  void modelMapper_refresh_maps_built_in_kinds_and_sees_the_crd(ControllerHarness harness)
      throws Exception {
    // GIVEN
    Discovery discovery = new Discovery(ApiClients.forHarness(harness));
    // WHEN: an interval of zero, because ModelMapper's cache is static, shared by the whole JVM
    Set<APIResource> refreshed = ModelMapper.refresh(discovery, Duration.ZERO);
    // THEN
    assertThat(refreshed).isEqualTo(discovery.findAll());
    assertThat(ModelMapper.getApiTypeClass("apps", "v1", "Deployment"))
        .isEqualTo(V1Deployment.class);
    assertThat(ModelMapper.getGroupVersionResourceByClass(V1Deployment.class).getResource())
        .isEqualTo("deployments");
    assertThat(ModelMapper.isNamespaced(V1Deployment.class)).isTrue();
    APIResource widget = ModelMapper.findApiResourceByGroupVersionKind(
        new GroupVersionKind("clientjava.ctk.dev", "v1", "Widget"));
    assertThat(widget).isNotNull();
    assertThat(widget.getResourcePlural()).isEqualTo("widgets");
    assertThat(ModelMapper.findApiResourceByGroupVersionKind(
        new GroupVersionKind("", "v1", "ConfigMap")).getResourcePlural()).isEqualTo("configmaps");
  }
}
