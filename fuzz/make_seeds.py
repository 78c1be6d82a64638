#!/usr/bin/env python3
"""Writes the seed corpora of fuzz/corpus/ (committed; run again only when a format changes):
tiny checkpoints trained by the native CLI (toy, sorter, stories; with and without optimizer state; the toy
one also with float32 step counts, as files from before I64 counts hold them, and its weights with a
training timeline),
safetensors files in every dtype the reader converts, the configs those checkpoints carry, training runs
(config, text and held-out text, NUL-separated), texts and vocabularies for the tokenizer, and command lines
(NUL-separated words). Usage: python3 fuzz/make_seeds.py [path/to/tinyformer]"""
import json
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "native", "cli", "tinyformer")
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def write(target, name, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def safetensors(tensors, metadata=None):
    """tensors: [(name, dtype, shape, raw bytes)] -> the file's bytes (header padded to 8 bytes)."""
    header, offset = {}, 0
    for name, dtype, shape, raw in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + len(raw)]}
        offset += len(raw)
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors)


def read_safetensors(data):
    n = struct.unpack("<Q", data[:8])[0]
    return json.loads(data[8:8 + n]), data[8 + n:]


def weights_only(data):
    header, body = read_safetensors(data)
    kept = [(k, v) for k, v in header.items() if k != "__metadata__" and not k.startswith("optim.")]
    tensors = [(k, v["dtype"], v["shape"], body[v["data_offsets"][0]:v["data_offsets"][1]]) for k, v in kept]
    meta = {k: v for k, v in header["__metadata__"].items() if k != "tinyformer.train"}
    return safetensors(tensors, meta)


def with_float_counts(data):
    """The checkpoint as files from before step counts were I64 hold them: float32 [1] tensors."""
    header, body = read_safetensors(data)
    tensors = [(k, "F32", [1], struct.pack("<f", struct.unpack("<q", body[v["data_offsets"][0]:][:8])[0]))
               if v["dtype"] == "I64" else (k, v["dtype"], v["shape"], body[v["data_offsets"][0]:v["data_offsets"][1]])
               for k, v in header.items() if k != "__metadata__"]
    return safetensors(tensors, header["__metadata__"])


def with_timeline(data, steps):
    """The checkpoint carrying a training timeline: its parameters again under step_<N>/ for each step."""
    header, body = read_safetensors(data)
    tensors = [(k, v["dtype"], v["shape"], body[v["data_offsets"][0]:v["data_offsets"][1]])
               for k, v in header.items() if k != "__metadata__"]
    params = [t for t in tensors if not t[0].startswith("optim.")]
    return safetensors(tensors + [(f"step_{n}/{t[0]}", *t[1:]) for n in steps for t in params], header["__metadata__"])


def train(tmp, name, *args):
    path = os.path.join(tmp, name + ".safetensors")
    subprocess.run([CLI, "train", "--steps", "2", "--no-eval", "--save", path, *args], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(path, "rb") as f:
        return f.read()


def checkpoints():
    with tempfile.TemporaryDirectory() as tmp:
        story = os.path.join(tmp, "story.txt")
        with open(story, "w") as f:
            f.write("once upon a time a cat sat on the mat. the cat was happy! <|endoftext|> " * 20)
        return {
            "toy": train(tmp, "toy", "--task", "toy", "--dim", "8", "--heads", "1", "--layers", "1",
                         "--max-length", "8", "--seq-len", "6", "--batch", "4"),
            "sorter": train(tmp, "sorter", "--task", "sort", "--dim", "4", "--heads", "1", "--max-length",
                            "12", "--seq-len", "12", "--batch", "4"),
            "stories": train(tmp, "stories", "--task", "stories", "--data", story, "--top-words", "12",
                             "--dim", "4", "--heads", "1", "--layers", "1", "--max-length", "8",
                             "--seq-len", "4", "--batch", "2", "--causal"),
        }


def main():
    cks = checkpoints()
    for name, data in cks.items():
        if name != "sorter":  # the sorter's optimizer state would make the largest seed (44 kB)
            write("checkpoint_model", name + ".safetensors", data)
        write("checkpoint_model", name + "-weights.safetensors", weights_only(data))
        write("wasm_entry_points", name + "-weights.safetensors", weights_only(data))
        meta = read_safetensors(data)[0]["__metadata__"]
        write("config_json", name + "-model.json", meta["tinyformer.config"])
        write("config_json", name + "-train.json", meta["tinyformer.train"])
        story = "once upon a time a cat sat on the mat . the cat was happy ! " * 3
        write("train_step", name, meta["tinyformer.train"] + "\0" + story + "\0" + story[:40])
    write("wasm_entry_points", "toy.safetensors", cks["toy"])
    write("checkpoint_model", "toy-float-counts.safetensors", with_float_counts(cks["toy"]))
    write("checkpoint_model", "toy-weights-timeline.safetensors", with_timeline(weights_only(cks["toy"]), [0, 2]))
    write("safetensors_round_trip", "toy-weights.safetensors", weights_only(cks["toy"]))
    write("safetensors_round_trip", "huge-zero-f16.safetensors",  # read, then its F32 copy was refused
          safetensors([("t", "F16", [2**62 + 1, 0], b"")]))
    write("safetensors_round_trip", "f32.safetensors",
          safetensors([("w", "F32", [2, 3], struct.pack("<6f", 1, -2, 0.5, 0, 3e38, -1e-30))], {"note": "é"}))
    write("safetensors_round_trip", "dtypes.safetensors", safetensors([
        ("half", "F16", [4], struct.pack("<4e", 1, -2, 65504, 6e-8)),
        ("brain", "BF16", [2, 2], struct.pack("<4H", 0x3F80, 0xC000, 0x7F80, 0x0001)),
        ("double", "F64", [3], struct.pack("<3d", 1e-300, 2.5, -1e300)),
        ("scalar", "F32", [], struct.pack("<f", 7)),
        ("empty", "F32", [0, 3], b""),
    ]))
    write("safetensors_round_trip", "integers.safetensors", safetensors([
        ("optim.steps", "I64", [1], struct.pack("<q", 2**40 + 3)),
        ("table", "I64", [2, 2], struct.pack("<4q", -1, 0, 2**63 - 1, -2**63)),
        ("w", "F32", [1], struct.pack("<f", 0.25)),
    ]))
    write("text_data", "story.txt", b"\x20" + b"Once upon a time, there was a little girl named Lily. She said: "
          b"\"don't go!\" <|endoftext|> The END. _ masks _")
    write("text_data", "unicode.txt", b"\x05caf\xc3\xa9 \xc4\xb0stanbul \xe2\x84\xaaelvin \xff\xfe na\xefve \xf0\x9f\x98\x80")
    write("text_data", "vocab.json", b"\x03" + json.dumps(["the", "cat", "don't", "<unk>", "_"]).encode())
    for name, words in {
        "train-toy": ["train", "--task", "toy", "--steps", "100", "--lr", "1e-3", "--save", "out.safetensors"],
        "write": ["write", "--checkpoint", "story.safetensors", "--prompt", "once upon a _", "--count=3", "--json"],
        "eval": ["eval", "--checkpoint", "x.safetensors", "--batches", "10"],
        "info": ["info", "--checkpoint=a.safetensors", "--json"],
        "help": ["help", "train"],
        "version": ["--version"],
    }.items():
        write("cli_args", name, "\0".join(words))


if __name__ == "__main__":
    main()
