"""A local S3-compatible server for the tests: moto's standalone server on a free port, over real HTTP."""
import socket

import boto3
import requests
from moto.server import ThreadedMotoServer

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "test-access-key", "AWS_SECRET_ACCESS_KEY": "test-secret-key"}
REGION = "ap-south-1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class LocalS3:
    """`with LocalS3("bucket") as s3:` runs the server with that bucket; `s3.client` looks inside."""

    def __init__(self, bucket: str):
        self.bucket = bucket
        self.port = _free_port()
        self.endpoint_url = f"http://127.0.0.1:{self.port}"
        self._server = ThreadedMotoServer(ip_address="127.0.0.1", port=self.port, verbose=False)

    def __enter__(self) -> "LocalS3":
        self._server.start()
        # moto keeps its buckets per process, across servers: start every server empty.
        requests.post(f"{self.endpoint_url}/moto-api/reset", timeout=10).raise_for_status()
        self.client = boto3.client("s3", endpoint_url=self.endpoint_url, region_name=REGION,
                                   aws_access_key_id=CREDENTIALS["AWS_ACCESS_KEY_ID"],
                                   aws_secret_access_key=CREDENTIALS["AWS_SECRET_ACCESS_KEY"])
        self.client.create_bucket(Bucket=self.bucket, CreateBucketConfiguration={"LocationConstraint": REGION})
        return self

    def __exit__(self, *_exc):
        self._server.stop()

    def keys(self) -> set[str]:
        listing = self.client.list_objects_v2(Bucket=self.bucket)
        return {item["Key"] for item in listing.get("Contents", [])}


def local_s3(monkeypatch, bucket: str):
    """A fixture's body: moto's server with `bucket`, and this test's AWS settings pointing at it only (the test
    credentials; no config or credentials file of the machine is read)."""
    for name, value in CREDENTIALS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    with LocalS3(bucket) as server:
        yield server
