package dev.ctk.envtest.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.ctk.envtest.values.EnvtestException;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads CustomResourceDefinitions from files, folders and classpath resources: multi-document YAML
 * or JSON, {@code kind: List} documents contribute their items, and every object must be an {@code
 * apiextensions.k8s.io/v1 CustomResourceDefinition} with a name. Every message names the source,
 * the document (counted as an editor shows them between {@code ---}) and, for a YAML error, the
 * parser's line and column in the file.
 *
 * <pre>{@code
 * List<CrdDocuments.Crd> crds = CrdDocuments.read("classpath:crds/widget.yaml");
 * }</pre>
 *
 * <p>Limits: folders are read one level deep (no sub-folders), files ending in {@code .yaml},
 * {@code .yml} or {@code .json}, in name order; no templating, no kustomize.
 */
public final class CrdDocuments {

  /** The prefix that marks a classpath resource in {@link #read(String)}. */
  public static final String CLASSPATH_PREFIX = "classpath:";

  private static final String API_VERSION = "apiextensions.k8s.io/v1";
  private static final String KIND = "CustomResourceDefinition";
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private CrdDocuments() {}

  /**
   * One CRD and where it came from.
   *
   * @param source the file or resource, as messages name it
   * @param document the document number, from 1
   * @param item the item number in a {@code List} document, from 1, or 0
   * @param definition the CRD
   */
  public record Crd(String source, int document, int item, CustomResourceDefinition definition) {

    /**
     * Where the CRD came from, e.g. {@code /x/crds.yaml, document 2}.
     *
     * @return the text
     */
    public String where() {
      return source + ", document " + document + (item > 0 ? " item " + item : "");
    }

    /**
     * The CRD's name, {@code <plural>.<group>}.
     *
     * @return the name
     */
    public String name() {
      return definition.getMetadata().getName();
    }
  }

  /**
   * Reads a path (file or folder) or, with the {@code classpath:} prefix, a classpath resource.
   *
   * @param source the source
   * @return the CRDs in order
   * @throws EnvtestException if the source does not exist or holds anything but valid CRDs
   */
  public static List<Crd> read(String source) {
    if (source.startsWith(CLASSPATH_PREFIX)) {
      return classpath(source.substring(CLASSPATH_PREFIX.length()));
    }
    return path(Path.of(source));
  }

  /**
   * Reads a file, or every {@code .yaml}, {@code .yml} and {@code .json} file of a folder in name
   * order.
   *
   * @param path the file or folder
   * @return the CRDs in order
   * @throws EnvtestException if the path does not exist, a folder holds no such file, or a file
   *     holds anything but valid CRDs
   */
  public static List<Crd> path(Path path) {
    Path absolute = path.toAbsolutePath().normalize();
    if (Files.isDirectory(absolute)) {
      List<Path> files;
      try (Stream<Path> children = Files.list(absolute)) {
        files =
            children
                .filter(Files::isRegularFile)
                .filter(CrdDocuments::isManifest)
                .sorted()
                .toList();
      } catch (IOException e) {
        throw new EnvtestException(
            "Cannot install CRDs: folder " + absolute + " cannot be listed: " + e + ". Check its permissions.",
            e);
      }
      if (files.isEmpty()) {
        throw new EnvtestException(
            "Cannot install CRDs: folder "
                + absolute
                + " holds no .yaml, .yml or .json file (sub-folders are not searched). Point at"
                + " the folder that holds the CRD files, or at the files themselves.");
      }
      List<Crd> crds = new ArrayList<>();
      for (Path file : files) {
        crds.addAll(file(file));
      }
      return crds;
    }
    if (!Files.isRegularFile(absolute)) {
      throw new EnvtestException(
          "Cannot install CRDs: "
              + absolute
              + " does not exist. Check the path (relative paths resolve against the working"
              + " directory "
              + Path.of("").toAbsolutePath()
              + "), or use classpath:<resource> for files on the classpath.");
    }
    return file(absolute);
  }

  /**
   * Reads a classpath resource (thread context class loader first, then ctk's).
   *
   * @param resource the resource name, e.g. {@code crds/widget.yaml}
   * @return the CRDs in order
   * @throws EnvtestException if the resource does not exist or holds anything but valid CRDs
   */
  public static List<Crd> classpath(String resource) {
    String name = resource.startsWith("/") ? resource.substring(1) : resource;
    ClassLoader context = Thread.currentThread().getContextClassLoader();
    InputStream in = context == null ? null : context.getResourceAsStream(name);
    if (in == null) {
      in = CrdDocuments.class.getClassLoader().getResourceAsStream(name);
    }
    if (in == null) {
      throw new EnvtestException(
          "Cannot install CRDs: classpath resource \""
              + name
              + "\" not found (looked in the thread context class loader and ctk's class loader)."
              + " Put the file under src/test/resources/"
              + name
              + ", or pass a file path instead.");
    }
    try (InputStream stream = in) {
      return parse("classpath resource \"" + name + "\"", stream);
    } catch (IOException e) {
      throw new EnvtestException(
          "Cannot install CRDs: classpath resource \"" + name + "\" cannot be read: " + e + ".", e);
    }
  }

  /**
   * Parses YAML or JSON documents.
   *
   * @param source how messages name the input
   * @param in the content (not closed)
   * @return the CRDs in order
   * @throws EnvtestException for invalid YAML or anything but valid v1 CRDs
   */
  public static List<Crd> parse(String source, InputStream in) {
    List<Crd> crds = new ArrayList<>();
    int index = 0;
    try (JsonParser parser = new YAMLFactory().createParser(in);
        MappingIterator<JsonNode> documents = YAML.readValues(parser, JsonNode.class)) {
      while (true) {
        index++;
        JsonNode document;
        try {
          if (!documents.hasNextValue()) {
            break;
          }
          document = documents.nextValue();
        } catch (JsonProcessingException e) {
          throw new EnvtestException(
              "Cannot install CRDs: "
                  + source
                  + ", document "
                  + index
                  + " is not valid YAML"
                  + position(e.getLocation())
                  + ": "
                  + firstLine(e.getOriginalMessage())
                  + ". Fix the YAML there (kubectl apply --dry-run=client -f reports the same"
                  + " problem).",
              e);
        }
        if (document == null
            || document.isNull()
            || document.isMissingNode()
            || (document.isObject() && document.isEmpty())) {
          continue;
        }
        if (!(document instanceof ObjectNode object)) {
          throw new EnvtestException(
              "Cannot install CRDs: "
                  + source
                  + ", document "
                  + index
                  + " is a YAML "
                  + document.getNodeType().toString().toLowerCase(Locale.ROOT)
                  + ", not a Kubernetes object. Every document must be an "
                  + API_VERSION
                  + " "
                  + KIND
                  + ".");
        }
        if ("List".equals(object.path("kind").asText()) && object.path("items").isArray()) {
          int item = 0;
          for (JsonNode element : object.get("items")) {
            item++;
            crds.add(crd(source, index, item, element));
          }
        } else {
          crds.add(crd(source, index, 0, object));
        }
      }
    } catch (IOException e) {
      throw new EnvtestException("Cannot install CRDs: " + source + " cannot be read: " + e + ".", e);
    }
    return crds;
  }

  private static Crd crd(String source, int document, int item, JsonNode node) {
    String where = source + ", document " + document + (item > 0 ? " item " + item : "");
    if (!(node instanceof ObjectNode object)) {
      throw new EnvtestException(
          "Cannot install CRDs: " + where + " is not a Kubernetes object. Every item must be an "
              + API_VERSION + " " + KIND + ".");
    }
    String apiVersion = object.path("apiVersion").asText("");
    String kind = object.path("kind").asText("");
    if (KIND.equals(kind) && "apiextensions.k8s.io/v1beta1".equals(apiVersion)) {
      throw new EnvtestException(
          "Cannot install CRDs: "
              + where
              + " is an apiextensions.k8s.io/v1beta1 CustomResourceDefinition; only "
              + API_VERSION
              + " is accepted (v1beta1 was removed in Kubernetes 1.22). Convert it to v1:"
              + " spec.versions[*].schema.openAPIV3Schema instead of spec.validation, and a"
              + " structural schema.");
    }
    if (!KIND.equals(kind) || !API_VERSION.equals(apiVersion)) {
      throw new EnvtestException(
          "Cannot install CRDs: "
              + where
              + " is "
              + (kind.isEmpty()
                  ? "an object without kind"
                  : "kind " + kind + " (apiVersion " + (apiVersion.isEmpty() ? "<none>" : apiVersion) + ")")
              + ", not an "
              + API_VERSION
              + " "
              + KIND
              + ". Only CRDs are installed this way; create other objects in the test itself.");
    }
    String name = object.path("metadata").path("name").asText("");
    if (name.isEmpty()) {
      throw new EnvtestException(
          "Cannot install CRDs: "
              + where
              + " has no metadata.name. A CRD is named <plural>.<group>, e.g."
              + " widgets.example.com.");
    }
    CustomResourceDefinition definition;
    try {
      definition = SERIALIZATION.convertValue(object, CustomResourceDefinition.class);
    } catch (IllegalArgumentException e) {
      throw new EnvtestException(
          "Cannot install CRDs: "
              + where
              + " (CRD "
              + name
              + ") does not fit the CustomResourceDefinition schema: "
              + e.getMessage().strip().replace('\n', ' ')
              + ". Fix the field named there.",
          e);
    }
    return new Crd(source, document, item, definition);
  }

  private static String firstLine(String parserMessage) {
    return parserMessage == null ? "" : parserMessage.strip().lines().findFirst().orElse("").strip();
  }

  private static String position(JsonLocation location) {
    if (location == null || location.getLineNr() < 1) {
      return "";
    }
    return " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
  }

  private static boolean isManifest(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
  }

  private static List<Crd> file(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return parse(file.toString(), in);
    } catch (IOException e) {
      throw new EnvtestException(
          "Cannot install CRDs: " + file + " cannot be read: " + e + ". Check its permissions.", e);
    }
  }
}
