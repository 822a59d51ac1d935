package dev.ctk.envtest.internal;

import dev.ctk.controller.internal.DurationText;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIGroupList;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Deletes a namespace on a server where no namespace controller runs (a bare kube-apiserver): it
 * empties the namespace itself (a delete-collection of every namespaced resource type that
 * supports it, with grace period 0, then removes finalizers of what is left), deletes the
 * namespace, and removes the {@code kubernetes} finalizer through the namespace's {@code
 * /finalize} subresource, which is what the namespace controller would do.
 *
 * <pre>{@code
 * List<String> problems = new NamespaceDeletion(client).deleteWithoutControllers("ctk-my-test-x1b2c");
 * }</pre>
 *
 * <p>Every step is best effort: failures are collected and returned, never thrown. Discovery is
 * done again for every namespace, so that the types of CRDs installed since the last deletion are
 * emptied too. Requests go through the client's HTTP client directly, so that fabric8 logs no
 * warning about beta API versions.
 */
public final class NamespaceDeletion {

  private static final int REQUEST_TIMEOUT_SECONDS = 10;
  private static final String DELETE_NOW =
      "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":0,"
          + "\"propagationPolicy\":\"Background\"}";
  private static final String NO_FINALIZERS = "{\"metadata\":{\"finalizers\":null}}";

  private final KubernetesClient client;

  /**
   * Creates the helper.
   *
   * @param client an admin client
   */
  public NamespaceDeletion(KubernetesClient client) {
    this.client = client;
  }

  /**
   * Empties and deletes the namespace, then finalizes it.
   *
   * @param namespace the namespace
   * @return what went wrong, one line each (empty when all went well)
   */
  public List<String> deleteWithoutControllers(String namespace) {
    List<String> problems = new ArrayList<>();
    List<ResourceDefinitionContext> types = namespacedTypes(problems);
    HttpClient http = client.getHttpClient();
    List<Sent> deletes = new ArrayList<>();
    for (ResourceDefinitionContext type : types) {
      String path = collection(namespace, type);
      deletes.add(
          Sent.of(
              http,
              "DELETE " + path,
              http.newHttpRequestBuilder().uri(url(path)).delete("application/json", DELETE_NOW).build()));
    }
    deletes.forEach(sent -> sent.await(problems));
    List<Sent> lists = new ArrayList<>();
    for (ResourceDefinitionContext type : types) {
      String path = collection(namespace, type);
      lists.add(Sent.of(http, "GET " + path, http.newHttpRequestBuilder().uri(url(path)).build()));
    }
    List<Sent> patches = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      String body = lists.get(i).await(problems);
      patches.addAll(removeFinalizers(http, collection(namespace, types.get(i)), body));
    }
    patches.forEach(sent -> sent.await(problems));
    try {
      client.namespaces().withName(namespace).delete();
    } catch (KubernetesClientException e) {
      if (e.getCode() != 404) {
        problems.add("DELETE namespace: " + Poll.describe(e));
      }
    }
    finalizeNamespace(namespace, problems);
    return problems;
  }

  /**
   * Every namespaced resource type of the server's preferred group versions (core {@code v1}
   * included) that supports {@code deletecollection}; subresources excluded.
   *
   * @param problems receives discovery failures
   * @return the types
   */
  public List<ResourceDefinitionContext> namespacedTypes(List<String> problems) {
    List<String> groupVersions = new ArrayList<>();
    groupVersions.add("v1");
    try {
      APIGroupList groups = client.getApiGroups();
      if (groups != null && groups.getGroups() != null) {
        for (APIGroup group : groups.getGroups()) {
          if (group.getPreferredVersion() != null) {
            groupVersions.add(group.getPreferredVersion().getGroupVersion());
          }
        }
      }
    } catch (KubernetesClientException e) {
      problems.add("discovery of API groups: " + Poll.describe(e));
    }
    List<ResourceDefinitionContext> types = new ArrayList<>();
    for (String groupVersion : groupVersions) {
      APIResourceList resources;
      try {
        resources = client.getApiResources(groupVersion);
      } catch (KubernetesClientException e) {
        problems.add("discovery of " + groupVersion + ": " + Poll.describe(e));
        continue;
      }
      if (resources == null || resources.getResources() == null) {
        continue;
      }
      int slash = groupVersion.indexOf('/');
      String group = slash < 0 ? "" : groupVersion.substring(0, slash);
      String version = slash < 0 ? groupVersion : groupVersion.substring(slash + 1);
      for (APIResource resource : resources.getResources()) {
        if (Boolean.TRUE.equals(resource.getNamespaced())
            && !resource.getName().contains("/")
            && resource.getVerbs() != null
            && resource.getVerbs().contains("deletecollection")) {
          types.add(
              new ResourceDefinitionContext.Builder()
                  .withGroup(group)
                  .withVersion(version)
                  .withPlural(resource.getName())
                  .withKind(resource.getKind())
                  .withNamespaced(true)
                  .build());
        }
      }
    }
    return types;
  }

  private List<Sent> removeFinalizers(HttpClient http, String path, String listBody) {
    List<Sent> patches = new ArrayList<>();
    if (listBody == null) {
      return patches;
    }
    GenericKubernetesResourceList left =
        client.getKubernetesSerialization().unmarshal(listBody, GenericKubernetesResourceList.class);
    if (left == null || left.getItems() == null) {
      return patches;
    }
    for (GenericKubernetesResource item : left.getItems()) {
      List<String> finalizers = item.getMetadata().getFinalizers();
      if (finalizers == null || finalizers.isEmpty()) {
        continue;
      }
      String itemPath = path + "/" + item.getMetadata().getName();
      patches.add(
          Sent.of(
              http,
              "removing finalizers " + finalizers + " of " + itemPath,
              http.newHttpRequestBuilder()
                  .uri(url(itemPath))
                  .method("PATCH", "application/merge-patch+json", NO_FINALIZERS)
                  .build()));
    }
    return patches;
  }

  private void finalizeNamespace(String namespace, List<String> problems) {
    Namespace current;
    try {
      current = client.namespaces().withName(namespace).get();
    } catch (KubernetesClientException e) {
      problems.add("GET namespace: " + Poll.describe(e));
      return;
    }
    if (current == null) {
      return;
    }
    if (current.getSpec() != null) {
      current.getSpec().setFinalizers(new ArrayList<>());
    }
    String path = "api/v1/namespaces/" + namespace + "/finalize";
    HttpClient http = client.getHttpClient();
    HttpRequest request =
        http.newHttpRequestBuilder()
            .uri(url(path))
            .put("application/json", client.getKubernetesSerialization().asJson(current))
            .build();
    Sent.of(http, "PUT " + path, request).await(problems);
  }

  private String url(String path) {
    String master = client.getMasterUrl().toString();
    return (master.endsWith("/") ? master : master + "/") + path;
  }

  private static String base(ResourceDefinitionContext type) {
    return type.getGroup() == null || type.getGroup().isEmpty()
        ? "api/" + type.getVersion()
        : "apis/" + type.getGroup() + "/" + type.getVersion();
  }

  private static String collection(String namespace, ResourceDefinitionContext type) {
    return base(type) + "/namespaces/" + namespace + "/" + type.getPlural();
  }

  /** A request on its way; 404 and 405 count as success (nothing there, or not listable). */
  private record Sent(String what, CompletableFuture<HttpResponse<String>> response) {

    static Sent of(HttpClient http, String what, HttpRequest request) {
      return new Sent(what, http.sendAsync(request, String.class));
    }

    /** Waits (bounded); returns the body of a successful answer, adds a line to problems otherwise. */
    String await(List<String> problems) {
      try {
        HttpResponse<String> answer = response.get(REQUEST_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (answer.isSuccessful()) {
          return answer.body();
        }
        if (answer.code() != 404 && answer.code() != 405) {
          String body = answer.body() == null ? "" : answer.body().replace('\n', ' ');
          problems.add(
              what + ": HTTP " + answer.code() + " "
                  + (body.length() > 300 ? body.substring(0, 300) + "..." : body));
        }
      } catch (ExecutionException e) {
        problems.add(what + ": " + Poll.describe(e.getCause() == null ? e : e.getCause()));
      } catch (TimeoutException e) {
        response.cancel(true);
        problems.add(
            what + ": no answer within " + DurationText.of(Duration.ofSeconds(REQUEST_TIMEOUT_SECONDS)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        problems.add(what + ": interrupted");
      }
      return null;
    }
  }
}
