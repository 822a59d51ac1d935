package dev.ctk.envtest.internal;

import dev.ctk.controller.internal.DurationText;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionCondition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The server side of CRD installation: create or update one CRD, wait until it is {@code
 * Established} and every served version appears in discovery, delete CRDs and wait until they are
 * gone. Waits poll every 100 ms up to a bound; a CRD whose names are refused ({@code
 * NamesAccepted=False}) fails at once.
 *
 * <pre>{@code
 * CrdReadiness readiness = new CrdReadiness(client, Duration.ofSeconds(30));
 * readiness.createOrUpdate(crd);
 * readiness.awaitServed(crd, System.nanoTime());
 * }</pre>
 */
public final class CrdReadiness {

  private static final long POLL_MILLIS = 100;
  private static final int CONFLICT_RETRIES = 5;

  private final KubernetesClient client;
  private final Duration timeout;

  /**
   * Creates the helper.
   *
   * @param client an admin client
   * @param timeout the bound of each wait
   */
  public CrdReadiness(KubernetesClient client, Duration timeout) {
    this.client = client;
    this.timeout = timeout;
  }

  /**
   * Creates the CRD, or updates the existing one of that name (waiting first if that one is being
   * deleted).
   *
   * @param crd the CRD and where it came from
   * @return true if it was created, false if an existing one was updated
   * @throws EnvtestException if the server refuses it
   */
  public boolean createOrUpdate(CrdDocuments.Crd crd) {
    String name = crd.name();
    for (int attempt = 1; ; attempt++) {
      CustomResourceDefinition desired =
          client.getKubernetesSerialization().clone(crd.definition());
      try {
        CustomResourceDefinition existing = crds().withName(name).get();
        if (existing == null) {
          desired.getMetadata().setResourceVersion(null);
          crds().resource(desired).create();
          return true;
        }
        if (existing.getMetadata().getDeletionTimestamp() != null) {
          awaitGone(List.of(name), System.nanoTime());
          continue;
        }
        desired.getMetadata().setResourceVersion(existing.getMetadata().getResourceVersion());
        crds().resource(desired).update();
        return false;
      } catch (KubernetesClientException e) {
        if (e.getCode() == 409 && attempt < CONFLICT_RETRIES) {
          continue;
        }
        throw new EnvtestException(
            "The API server refused CRD "
                + name
                + " from "
                + crd.where()
                + ": "
                + status(e)
                + ". Fix the CRD there.",
            e);
      }
    }
  }

  /**
   * Waits until the CRD is {@code Established}, discovery lists it in every served version, and a LIST of each
   * served version answers (not {@code 429 storage is (re)initializing}).
   *
   * @param crd the CRD
   * @param startNanos when installing began; the bound counts from there
   * @throws EnvtestException if its names are refused, or on timeout
   */
  public void awaitServed(CrdDocuments.Crd crd, long startNanos) {
    String name = crd.name();
    long deadline = startNanos + timeout.toNanos();
    String pending = "no answer yet";
    while (true) {
      try {
        CustomResourceDefinition current = crds().withName(name).get();
        if (current == null) {
          pending = "the CRD does not exist (deleted by someone else?)";
        } else {
          CustomResourceDefinitionCondition namesAccepted = condition(current, "NamesAccepted");
          if (namesAccepted != null && "False".equals(namesAccepted.getStatus())) {
            throw new EnvtestException(
                "CRD "
                    + name
                    + " from "
                    + crd.where()
                    + " was not accepted: NamesAccepted=False ("
                    + namesAccepted.getReason()
                    + ": "
                    + namesAccepted.getMessage()
                    + "). Another CRD already uses these names; change spec.names.");
          }
          CustomResourceDefinitionCondition established = condition(current, "Established");
          if (established == null || !"True".equals(established.getStatus())) {
            pending = "not Established yet; conditions: " + conditions(current);
          } else {
            pending = unserved(current);
            if (pending == null) {
              pending = unlistable(current);
            }
            if (pending == null) {
              return;
            }
          }
        }
      } catch (KubernetesClientException e) {
        pending = "reading it failed: " + status(e);
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new EnvtestException(
            "CRD "
                + name
                + " from "
                + crd.where()
                + " was not served within "
                + DurationText.of(timeout)
                + " (waited "
                + DurationText.since(startNanos)
                + "): "
                + pending
                + ". Raise withTimeout(..) if the server is only slow; otherwise check the CRD.");
      }
      pause(name);
    }
  }

  /**
   * Deletes the CRDs (in reverse order) and waits until every one is gone.
   *
   * @param names CRD names
   * @throws EnvtestException if one is still there after the timeout
   */
  public void deleteAndAwaitGone(List<String> names) {
    long start = System.nanoTime();
    for (int i = names.size() - 1; i >= 0; i--) {
      try {
        crds().withName(names.get(i)).delete();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 404) {
          throw new EnvtestException(
              "Could not delete CRD " + names.get(i) + ": " + status(e) + ".", e);
        }
      }
    }
    awaitGone(names, start);
  }

  private void awaitGone(List<String> names, long startNanos) {
    long deadline = startNanos + timeout.toNanos();
    while (true) {
      List<String> left = new ArrayList<>();
      for (String name : names) {
        CustomResourceDefinition current = crds().withName(name).get();
        if (current != null) {
          left.add(
              name
                  + " (finalizers "
                  + current.getMetadata().getFinalizers()
                  + ", conditions "
                  + conditions(current)
                  + ")");
        }
      }
      if (left.isEmpty()) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new EnvtestException(
            "CRDs still there "
                + DurationText.since(startNanos)
                + " after their deletion (bound "
                + DurationText.of(timeout)
                + "): "
                + String.join(", ", left)
                + ". The API server deletes their custom resources first; raise withTimeout(..)"
                + " if there are many.");
      }
      pause(String.join(", ", names));
    }
  }

  private String unserved(CustomResourceDefinition crd) {
    String group = crd.getSpec().getGroup();
    String plural = crd.getSpec().getNames().getPlural();
    List<String> missing = new ArrayList<>();
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (!Boolean.TRUE.equals(version.getServed())) {
        continue;
      }
      String groupVersion = group + "/" + version.getName();
      APIResourceList resources;
      try {
        resources = client.getApiResources(groupVersion);
      } catch (KubernetesClientException e) {
        resources = null;
      }
      boolean listed =
          resources != null
              && resources.getResources() != null
              && resources.getResources().stream().map(APIResource::getName).anyMatch(plural::equals);
      if (!listed) {
        missing.add(groupVersion + " " + plural);
      }
    }
    return missing.isEmpty()
        ? null
        : "Established, but discovery does not list " + String.join(", ", missing) + " yet";
  }

  /**
   * Whether a LIST of each served version answers: kube-apiserver 1.2x+ fills a new CRD's watch cache after it is
   * Established and in discovery, and answers {@code 429 storage is (re)initializing} until then, which an
   * informer's first LIST (on a client that does not retry) would take as a failure to start.
   */
  private String unlistable(CustomResourceDefinition crd) {
    for (CustomResourceDefinitionVersion version : crd.getSpec().getVersions()) {
      if (!Boolean.TRUE.equals(version.getServed())) {
        continue;
      }
      ResourceDefinitionContext context = new ResourceDefinitionContext.Builder()
          .withGroup(crd.getSpec().getGroup())
          .withVersion(version.getName())
          .withPlural(crd.getSpec().getNames().getPlural())
          .withKind(crd.getSpec().getNames().getKind())
          .withNamespaced("Namespaced".equals(crd.getSpec().getScope()))
          .build();
      try {
        client.genericKubernetesResources(context).inAnyNamespace()
            .list(new ListOptionsBuilder().withLimit(1L).build());
      } catch (KubernetesClientException e) {
        return "Established and in discovery, but a LIST of " + crd.getSpec().getGroup() + "/" + version.getName()
            + " " + crd.getSpec().getNames().getPlural() + " answers " + status(e);
      }
    }
    return null;
  }

  private NonNamespaceOperation<
          CustomResourceDefinition,
          CustomResourceDefinitionList,
          Resource<CustomResourceDefinition>>
      crds() {
    return client.apiextensions().v1().customResourceDefinitions();
  }

  private static CustomResourceDefinitionCondition condition(
      CustomResourceDefinition crd, String type) {
    if (crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return null;
    }
    return crd.getStatus().getConditions().stream()
        .filter(c -> type.equals(c.getType()))
        .findFirst()
        .orElse(null);
  }

  private static String conditions(CustomResourceDefinition crd) {
    if (crd.getStatus() == null || crd.getStatus().getConditions() == null) {
      return "[]";
    }
    return crd.getStatus().getConditions().stream()
        .map(c -> c.getType() + "=" + c.getStatus() + (c.getReason() == null ? "" : " (" + c.getReason() + ")"))
        .collect(Collectors.joining(", ", "[", "]"));
  }

  private static String status(KubernetesClientException e) {
    if (e.getStatus() != null && e.getStatus().getMessage() != null) {
      return e.getCode() + " " + e.getStatus().getReason() + ": " + e.getStatus().getMessage();
    }
    return Poll.describe(e);
  }

  private static void pause(String what) {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new EnvtestException("Interrupted while waiting for CRD " + what + ".", e);
    }
  }
}
