package dev.ctk.harness.internal;

import dev.ctk.controller.internal.ThrowableText;
import dev.ctk.harness.internal.realserver.ResourceLocation;
import dev.ctk.harness.values.HarnessConfigurationException;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of {@code @ControllerTest(resources)} for a real server: read from their files (several
 * YAML documents or a v1 {@code List} per file), split into CRDs (installed once per server) and
 * objects (created in each new test namespace). A namespaced object without a namespace, or in
 * {@code default}, goes into the test's namespace; one that names another namespace is created
 * there as written.
 *
 * @param crds the CRDs found in the files
 * @param objects the other objects, in file order
 */
public record SeedObjects(List<CustomResourceDefinition> crds, List<HasMetadata> objects) {

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Reads the files and adds the objects given to the builder. */
  public static SeedObjects read(List<ResourceLocation> files, List<HasMetadata> objects) {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    List<HasMetadata> others = new ArrayList<>();
    for (ResourceLocation file : files) {
      for (HasMetadata object : parse(file)) {
        if (object instanceof CustomResourceDefinition crd) {
          crds.add(crd);
        } else {
          others.add(object);
        }
      }
    }
    for (HasMetadata object : objects) {
      if (object instanceof CustomResourceDefinition crd) {
        crds.add(ClusterSpec.copy(crd));
      } else {
        others.add(object);
      }
    }
    return new SeedObjects(List.copyOf(crds), List.copyOf(others));
  }

  /**
   * Creates the objects with {@code client}, namespaced ones without a namespace (or in {@code
   * default}) in {@code namespace}.
   *
   * @throws HarnessConfigurationException naming the object, the namespace, the server's answer
   */
  public void createIn(KubernetesClient client, String namespace, String server) {
    Map<String, Boolean> namespacedKinds = new HashMap<>();
    for (HasMetadata original : objects) {
      HasMetadata object = ClusterSpec.copy(original);
      object.getMetadata().setResourceVersion(null);
      String current = object.getMetadata().getNamespace();
      if ((current == null || current.equals("default"))
          && isNamespaced(client, object, namespacedKinds)) {
        object.getMetadata().setNamespace(namespace);
      }
      try {
        client.resource(object).create();
      } catch (KubernetesClientException e) {
        throw new HarnessConfigurationException("Cannot seed " + object.getKind() + " "
            + (object.getMetadata().getNamespace() == null ? ""
                : object.getMetadata().getNamespace() + "/") + object.getMetadata().getName()
            + " into " + server + ": " + e.getCode() + " "
            + ThrowableText.firstLine(e.getStatus() == null ? e.getMessage()
                : e.getStatus().getMessage())
            + ". Fix: correct the object in @ControllerTest(resources), and install the CRD of "
            + "its kind with crds = ... .", e);
      }
    }
  }

  private static boolean isNamespaced(KubernetesClient client, HasMetadata object,
      Map<String, Boolean> cache) {
    if (object instanceof Namespaced) {
      return true;
    }
    String key = object.getApiVersion() + "/" + object.getKind();
    return cache.computeIfAbsent(key, k -> {
      APIResourceList resources = client.getApiResources(object.getApiVersion());
      if (resources == null) {
        return false;
      }
      return resources.getResources().stream()
          .filter(r -> object.getKind().equals(r.getKind()) && !r.getName().contains("/"))
          .findFirst().map(APIResource::getNamespaced).orElse(false);
    });
  }

  private static List<HasMetadata> parse(ResourceLocation location) {
    Object parsed;
    try (InputStream in = open(location)) {
      parsed = SERIALIZATION.unmarshal(in);
    } catch (IOException | RuntimeException e) {
      throw new HarnessConfigurationException("Cannot read the objects of \"" + location.text()
          + "\": " + ThrowableText.firstLine(e.getMessage()) + ". Fix: check the YAML (kubectl apply "
          + "--dry-run=client -f shows the same problem).", e);
    }
    List<HasMetadata> objects = new ArrayList<>();
    collect(parsed, objects);
    return objects;
  }

  private static void collect(Object parsed, List<HasMetadata> into) {
    if (parsed instanceof KubernetesResourceList<?> list) {
      list.getItems().forEach(item -> collect(item, into));
    } else if (parsed instanceof List<?> list) {
      list.forEach(item -> collect(item, into));
    } else if (parsed instanceof HasMetadata object) {
      into.add(object);
    }
  }

  private static InputStream open(ResourceLocation location) throws IOException {
    if (location.file() != null) {
      return Files.newInputStream(location.file());
    }
    InputStream in = ResourceLocation.defaultLoader().getResourceAsStream(
        location.classpathResource());
    if (in == null) {
      throw new IOException("classpath resource \"" + location.classpathResource()
          + "\" not found");
    }
    return in;
  }
}
